/** The web app's entry: the shell and the inbox load first; every other page is its own chunk. */
import { render } from 'preact';
import './styles.css';
import { App } from './app.js';

// The test harness reads when the inbox first showed (performance.mark 'inbox-rendered').
render(<App />, document.getElementById('app')!);
