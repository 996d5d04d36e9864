import { avatarColour, avatarInitials } from '../lib/avatar';

interface AvatarProps {
  /** The person's id: picks the colour. */
  id: string;
  name: string;
  /** A photo URL when the person has one; initials otherwise. */
  photo?: string | null;
  size?: number;
}

/** A round avatar: the photo, or the initials on one of seven colours. Decorative: the name is shown beside it. */
export function Avatar({ id, name, photo, size = 56 }: AvatarProps) {
  const style = { width: size, height: size, fontSize: Math.round(size * 0.38), background: avatarColour(id) };
  if (photo) return <img className="avatar" src={photo} alt="" width={size} height={size} style={style} />;
  return (
    <span className="avatar" aria-hidden="true" style={style}>
      {avatarInitials(name)}
    </span>
  );
}
