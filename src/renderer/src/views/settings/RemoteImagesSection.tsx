import { imagePolicyInForce, useRemoteImages } from '../../stores/remote-images';

/** Images: whether avatars, covers and media are fetched from the hosts their URLs name. */
export function RemoteImagesSection() {
  const enabled = useRemoteImages((s) => s.enabled);
  const setEnabled = useRemoteImages((s) => s.setEnabled);
  const change = (on: boolean) => {
    setEnabled(on);
    // The page's stricter image policy cannot be lifted in place; a reload starts without it.
    if (on && imagePolicyInForce()) window.location.reload();
  };
  return (
    <section className="card" aria-labelledby="images-title">
      <h2 id="images-title">Images</h2>
      <label className="check">
        <input type="checkbox" checked={enabled} onChange={(e) => change(e.target.checked)} /> Load images from remote hosts
      </label>
      <p className="muted small">
        Avatars, article covers and media are links to the platform&apos;s image hosts, and fetching one tells that host which
        profiles you are browsing. While this is off, Skein draws initials and placeholders and fetches nothing. Turning it on
        reloads the page; the choice is kept on this computer.
      </p>
    </section>
  );
}
