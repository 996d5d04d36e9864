-- A person's own profile (issue 5, spec 3 User fields countryId, countryName, birthday, sex), written by
-- POST agg-web/user/updateUserInfo. All optional: NULL until the person fills them in.
ALTER TABLE users ADD COLUMN country_id TEXT CHECK (country_id IS NULL OR (length(country_id) = 2 AND country_id = upper(country_id)));  -- ISO 3166-1 alpha-2
ALTER TABLE users ADD COLUMN country_name TEXT;            -- the English name from the country list (clients show nameCn by id)
ALTER TABLE users ADD COLUMN birthday TEXT CHECK (birthday IS NULL OR birthday GLOB '[12][0-9][0-9][0-9]-[01][0-9]-[0-3][0-9]');  -- 'YYYY-MM-DD'
ALTER TABLE users ADD COLUMN sex TEXT CHECK (sex IS NULL OR sex IN ('male', 'female'));    -- src/schemas/profile.ts SEXES; NULL = not stated
