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

const DRUGS = ['warfarin', 'heparin', 'digoxin', 'insulin glargine', 'methotrexate', 'lithium', 'amiodarone', 'vancomycin', 'gentamicin', 'morphine', 'fentanyl', 'potassium chloride'];
const WARDS = ['cardiology', 'oncology', 'paediatrics', 'intensive care', 'nephrology', 'emergency', 'obstetrics', 'geriatrics'];

/**
 * A long high-stakes source: a hospital's high-alert medication protocol of numbered sections
 * (doses, limits, toxicity; about 13,800 tokens), generated deterministically. A question on it
 * reads as high stakes, so the auto pick's floor steps up (spec: What the service does 3) and a
 * split of it pays whatever difficulty the classifier reads.
 */
export function medicationProtocol(sections = 80): string {
  const lines: string[] = ['HIGH-ALERT MEDICATION PROTOCOL', ''];
  for (let i = 0; i < sections; i += 1) {
    const drug = DRUGS[i % DRUGS.length];
    const ward = WARDS[(i * 3) % WARDS.length];
    lines.push(`Section ${i + 1}. ${drug} on the ${ward} ward`);
    lines.push(`The usual adult dose of ${drug} on ${ward} is ${(i % 5) + 1} mg/kg, never more than ${((i % 5) + 1) * 80} mg in 24 hours; a second nurse double-checks every dose before it is given.`);
    lines.push(`In patients with a creatinine clearance below ${20 + (i % 4) * 10} mL/min the dose is halved, and levels are taken ${6 + (i % 3) * 6} hours after the first dose.`);
    lines.push(`${drug[0].toUpperCase() + drug.slice(1)} is contraindicated in pregnancy and in patients taking interacting drugs listed in appendix ${String.fromCharCode(65 + (i % 8))}; an overdose is treated as a medical emergency and reported to the pharmacist on call at extension ${300 + i}.`);
    lines.push('Signs of toxicity (confusion, arrhythmia, bleeding, respiratory depression) mean the infusion stops at once and the rapid response team is called.');
    lines.push('');
  }
  return lines.join('\n');
}
