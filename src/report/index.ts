/** The report files of `run` and `verify`: one JUnit model and one way to write a report. */
export { type JunitCase, junitXml } from './junit.js';
export { writeReport } from './write.js';
