/** PLACEHOLDER */
export function NotFoundPage() {
  return <div>NotFoundPage</div>;
}
