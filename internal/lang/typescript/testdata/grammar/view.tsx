export const V = ({ a }: P) => <div className={a}><Child {...a} /></div>;
