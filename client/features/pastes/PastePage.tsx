/** PLACEHOLDER */
export function PastePage() {
  return <div>PastePage</div>;
}
