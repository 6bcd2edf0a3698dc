import { localZoneName, useTimeZone } from '../../stores/time-zone';

/** Dates and times: the zone the app shows them in. Queries and exports are UTC either way. */
export function TimeZoneSection() {
  const zone = useTimeZone((s) => s.zone);
  const setZone = useTimeZone((s) => s.setZone);
  return (
    <section className="card" aria-labelledby="time-zone-title">
      <h2 id="time-zone-title">Dates and times</h2>
      <fieldset className="segmented" aria-label="Show dates in">
        <label className={zone === 'local' ? 'on' : ''}>
          <input type="radio" name="time-zone" value="local" checked={zone === 'local'} onChange={() => setZone('local')} />
          This computer&apos;s zone ({localZoneName()})
        </label>
        <label className={zone === 'utc' ? 'on' : ''}>
          <input type="radio" name="time-zone" value="utc" checked={zone === 'utc'} onChange={() => setZone('utc')} />
          UTC
        </label>
      </fieldset>
      <p className="muted small">
        Every date shows its zone. Search dates (<code>since:</code>, <code>until:</code>) and the timestamps in exported files are
        always UTC: choose UTC here to see posts on the days a query counts them. The choice is kept on this computer.
      </p>
    </section>
  );
}
