/**
 * axe-core (from npm) run inside a dashboard page: the serious and critical findings, for the
 * browser tests' "zero serious or critical violations" (issue 28 §1).
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

const AXE_SOURCE = axe.source;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/** The serious and critical axe-core findings on the page as it is now (WCAG 2.2 A/AA and best practices). */
export async function axeFindings(page: Page): Promise<string[]> {
  // page.evaluate runs outside the page's Content-Security-Policy, which refuses inline scripts.
  // Once per document: compiling its 0.5 MB again cost ~0.3 s a call.
  if (!(await page.evaluate('typeof axe !== "undefined"'))) await page.evaluate(AXE_SOURCE);
  // A rule with an impact of its own gives every finding that impact (axe-core's finalizeRuleResult):
  // the rules whose impact is minor or moderate can report nothing serious or critical, so they are
  // not run (region and heading-order walk every element of the page: decision 0267).
  const violations = (await page.evaluate(
    `axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
      rules: Object.fromEntries(
        axe._audit.rules
          .filter((rule) => rule.impact === 'minor' || rule.impact === 'moderate')
          .map((rule) => [rule.id, { enabled: false }]),
      ),
      resultTypes: ['violations'],
    }).then((r) => r.violations)`,
  )) as AxeViolation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    );
}
