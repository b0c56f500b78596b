/** PLACEHOLDER */
export function OfflinePage() {
  return <div>OfflinePage</div>;
}
