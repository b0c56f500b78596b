/** PLACEHOLDER */
export default function TextManagementPage() {
  return <div>TextManagementPage</div>;
}
