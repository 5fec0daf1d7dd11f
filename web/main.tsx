/** The web app's entry: the shell and the inbox load first; every other page is its own chunk. */
import { render } from 'preact';
import './styles.css';
import { App } from './app.js';

render(<App />, document.getElementById('app')!);
