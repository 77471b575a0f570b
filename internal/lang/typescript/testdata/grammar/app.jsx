export default function App() { return <>{items.map(i => <Item key={i} />)}</>; }
