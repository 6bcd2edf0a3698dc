export function App() {
  return (
    <main>
      <h1>Skein</h1>
      <p>Your social-data research desk.</p>
    </main>
  );
}
