/**
 * The dashboard's smaller browser suites about what it shows and how, gathered in one test file so
 * they share one worker and one chromium (see test/dashboard-panels.test.ts): keyboard and screen
 * reader (axe-core), the delivery charts, the 1400 px layout, its states, and a steady stream of
 * events.
 */
import './dashboard-a11y.browser.js';
import './dashboard-charts.browser.js';
import './dashboard-layout.browser.js';
import './dashboard-scheme.browser.js';
import './dashboard-states.browser.js';
import './dashboard-steady.browser.js';
import './dashboard-zoom.browser.js';
