-- "Trust this device for 30 days" (issue 44): a known device (0440) the person trusted when they passed the second step
-- or the new-device challenge skips both until trusted_until. The device is still named only by its token's SHA-256.
-- A password change or reset, "sign out everywhere", an operator's two-step reset and an operator's block end every
-- trust of the person, in the batch of that change (identity/db/devices.ts endTrustStatement).
ALTER TABLE known_devices ADD COLUMN trusted_until INTEGER;

-- The company's device rules, read with its two-step rule (companies/db.ts MEMBERSHIP_COLUMNS):
-- confirm_new_devices: its members owe the new-device challenge even where NEW_DEVICE_CHALLENGE is off;
-- forbid_trusted_devices: with require_two_step, no member's device may skip the second step or the challenge.
ALTER TABLE companies ADD COLUMN confirm_new_devices INTEGER NOT NULL DEFAULT 0;
ALTER TABLE companies ADD COLUMN forbid_trusted_devices INTEGER NOT NULL DEFAULT 0;
