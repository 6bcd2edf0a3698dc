import { useState } from 'react';
import { useRemoteImages } from '../stores/remote-images';

/**
 * A profile picture that degrades to initials: the initials are drawn first and the image only
 * covers them once it has loaded, so an unreachable image (no network) leaves a clean monogram
 * and nothing jumps. The image is fetched only when remote images are turned on in Settings.
 */
export function Avatar({ name, url, size = 40 }: { name: string; url?: string | null; size?: number }) {
  const [loaded, setLoaded] = useState(false);
  const [failed, setFailed] = useState(false);
  const remote = useRemoteImages((s) => s.enabled);
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((w) => Array.from(w)[0]!.toUpperCase())
      .join('') || '?';
  let hue = 0;
  for (const ch of name) hue = (hue * 31 + ch.codePointAt(0)!) % 360;
  return (
    <span className="avatar" style={{ width: size, height: size, fontSize: size * 0.4, backgroundColor: `hsl(${hue} 45% 45%)` }} aria-hidden="true">
      <span className="avatar-initials">{initials}</span>
      {remote && url && !failed ? (
        <img
          src={url}
          alt=""
          className={loaded ? 'avatar-img loaded' : 'avatar-img'}
          onLoad={() => setLoaded(true)}
          onError={() => setFailed(true)}
          referrerPolicy="no-referrer"
        />
      ) : null}
    </span>
  );
}
