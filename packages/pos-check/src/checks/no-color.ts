// color is not a catalog attribute and is never returned, in any product, barcode or IMEI answer of the run.
import { type Check, successData } from '../check.js';
import { answers, objectsIn, perEndpoint } from './observed.js';

const COLOR = /^(colou?rs?|cor(es)?|colorName|corNome)$/i;

export const noColor: Check = {
  id: 'r03.no-color',
  title: 'R-03: no color attribute in the catalog',
  run({ probe, violation }) {
    const problems = perEndpoint();
    for (const exchange of answers(probe.exchanges, false)) {
      for (const [path, object] of objectsIn(successData(exchange))) {
        const key = Object.keys(object).find((name) => COLOR.test(name));
        if (key) problems.add(exchange.endpoint, `${path}.${key}`);
      }
    }
    problems.report((endpoint, summary) =>
      violation(
        endpoint,
        `a color attribute is returned: ${summary}`,
        'remove color from products: the financing service finances the SKU, the color is resolved from the IMEI at sale time (R-03)',
      ),
    );
  },
};
