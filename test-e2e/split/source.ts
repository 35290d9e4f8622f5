/**
 * A long plain-text source for the split-and-route tests: an operations handbook of numbered
 * sections, each with a few distinct facts (about 24,000 tokens), generated deterministically.
 */
const TEAMS = ['Billing', 'Logistics', 'Security', 'Support', 'Facilities', 'Payroll', 'Procurement', 'Legal', 'Research', 'Marketing', 'Sales', 'Quality'];
const CITIES = ['Oslo', 'Lisbon', 'Denver', 'Osaka', 'Nairobi', 'Porto', 'Quebec', 'Tallinn', 'Austin', 'Krakow', 'Perth', 'Lima'];

export function handbook(sections = 120): string {
  const lines: string[] = ['OPERATIONS HANDBOOK', ''];
  for (let i = 0; i < sections; i += 1) {
    const team = TEAMS[i % TEAMS.length];
    const city = CITIES[(i * 7) % CITIES.length];
    const code = 4000 + i * 13;
    lines.push(`Section ${i + 1}. ${team} procedures, ${city} office`);
    lines.push(`The ${team} desk in ${city} opens at ${7 + (i % 4)}:00 and closes at ${16 + (i % 3)}:30 on working days.`);
    lines.push(`Requests to ${team} use form ${code}; an approved form is archived after ${30 + (i % 5) * 15} days.`);
    lines.push(`Escalations from the ${city} office go to the duty manager on extension ${200 + i}.`);
    lines.push(`Budget changes above ${(i % 6) + 2},000 dollars need a second signature from the regional director.`);
    lines.push(`Visitors to the ${city} site sign in at reception and wear a badge at all times.`);
    lines.push('');
  }
  return lines.join('\n');
}
