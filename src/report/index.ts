/** The report files of `run` and `verify`: one JUnit model and one way to write a report. */
export { type JunitCase, type JunitSuite, junitXml } from './junit.js';
export { writeReport } from './write.js';
export { junitSeconds, xmlEscape } from './xml.js';
