/**
 * The dashboard's smaller browser suites that drive its panels, gathered in one test file so they
 * share one worker and one chromium (test/helpers/chromium.ts; a file costs ~1 s of CPU to start
 * and a chromium ~3 s): the admin API door, bulk retry, finding and exporting, outages, resending
 * and the set-up panels. Each suite is its own `*.browser.ts` file, written as a test file; add a
 * new small one here or in test/dashboard-views.test.ts rather than as a test file of its own.
 */
import './dashboard-admin.browser.js';
import './dashboard-bulk-retry.browser.js';
import './dashboard-find.browser.js';
import './dashboard-live-list.browser.js';
import './dashboard-outages.browser.js';
import './dashboard-resend.browser.js';
import './dashboard-setup-panels.browser.js';
import './dashboard-triage.browser.js';
