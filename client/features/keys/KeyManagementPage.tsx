/** PLACEHOLDER */
export default function KeyManagementPage() {
  return <div>KeyManagementPage</div>;
}
