/** PLACEHOLDER */
export function AdminIndexRedirect() {
  return <div>AdminIndexRedirect</div>;
}
