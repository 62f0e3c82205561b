import { render } from 'preact';
import { App } from './components/app.js';
import './styles.css';

const root = document.getElementById('app');
if (root) render(<App location={window.location} history={window.history} />, root);
