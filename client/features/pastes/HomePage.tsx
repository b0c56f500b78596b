/** PLACEHOLDER */
export default function HomePage() {
  return <div>HomePage</div>;
}
