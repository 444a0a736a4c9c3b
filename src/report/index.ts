/** The report files of `run`, `verify` and `verify-client`: one JUnit model, one case shape, one way to write a report. */
export { formatReportedCase, formatTally, junitCaseOf } from './case-report.js';
export { type JunitCase, junitXml } from './junit.js';
export { writeReport } from './write.js';
