import './styles.css';
import './runs.css';
import { render } from 'preact';
import { App } from './app.js';
import { installKeys } from './keys.js';

const root = document.getElementById('app');
if (root) {
  render(<App />, root);
  installKeys();
}
