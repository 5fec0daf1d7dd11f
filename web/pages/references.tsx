/** Search the references library (search_references), read-only. */
import { useState } from 'preact/hooks';
import * as api from '../api.js';

/** The snippet marks matches as **…**: shown as <mark>, everything else as text. */
function Snippet({ text }: { text: string }) {
  return (
    <>
      {text.split(/\*\*(.+?)\*\*/g).map((part, i) => (i % 2 === 1 ? <mark key={i}>{part}</mark> : part))}
    </>
  );
}

export function ReferencesPage() {
  const [query, setQuery] = useState('');
  const [result, setResult] = useState<{ query: string; hits: api.ReferenceHit[] } | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const search = async (e: Event) => {
    e.preventDefault();
    if (query.trim() === '') return;
    setProblem(null);
    try {
      const r = await api.searchReferences(query.trim());
      setResult({ query: query.trim(), hits: r.results });
    } catch (err) {
      setProblem((err as Error).message);
    }
  };
  return (
    <>
      <h1>References</h1>
      <search>
      <form onSubmit={search} class="search">
        <label for="ref-query">Search the references</label>
        <div class="row">
          <input id="ref-query" type="search" value={query} onInput={(e) => setQuery((e.currentTarget as HTMLInputElement).value)} />
          <button type="submit">Search</button>
        </div>
      </form>
      </search>
      {problem && (
        <p role="alert" class="error-summary">
          {problem}
        </p>
      )}
      {result && (
        <section aria-labelledby="results-title">
          <h2 id="results-title">Results</h2>
          <p role="status">
            {result.hits.length} result{result.hits.length === 1 ? '' : 's'} for “{result.query}”
          </p>
          <ul class="cards">
            {result.hits.map((h) => (
              <li key={h.reference_id} class="card-item">
                <h3>{h.reference_title}</h3>
                {h.reference_abstract && <p>{h.reference_abstract}</p>}
                <p class="snippet">
                  <Snippet text={h.snippet} />
                </p>
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
