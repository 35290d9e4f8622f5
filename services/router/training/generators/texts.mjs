// Passages used as source material (reviews, tickets, emails, articles, transcripts).
import { person, email, COMPANIES, PRODUCTS, CITIES } from './lib.mjs';

export const REVIEWS = [
  (r) => `The ${r.pick(PRODUCTS)} arrived two days late and the box was crushed, but it works fine. Customer service never answered my email though.`,
  (r) => `Absolutely love this ${r.pick(PRODUCTS)}! Battery lasts forever and setup took five minutes. Would buy again.`,
  (r) => `Meh. It does the job but feels cheap. For $${r.int(40, 300)} I expected better build quality.`,
  (r) => `Stopped working after ${r.int(2, 11)} weeks. Returned it. Avoid.`,
  (r) => `Funciona bien, aunque el envío tardó mucho. La calidad es correcta para el precio.`,
  (r) => `Produit conforme à la description, livraison rapide. Je recommande.`,
  (r) => `Leider nach einem Monat kaputt gegangen. Der Kundenservice war aber hilfsbereit.`,
  (r) => `Chegou quebrado e o vendedor não quis trocar. Péssima experiência.`,
  (r) => `质量很好，物流也快，就是价格有点贵。`,
  (r) => `思ったより小さかったですが、音質はとても良いです。`,
];

export const TICKETS = [
  (r) => `I was charged twice for my subscription this month (invoice ${r.id('INV-')}). Please refund one of them.`,
  (r) => `The export to CSV button does nothing in Safari ${r.int(15, 17)}. Chrome works.`,
  (r) => `Can you add dark mode to the mobile app? My eyes hurt at night.`,
  (r) => `I can't log in, it says my account is locked after I reset my password.`,
  (r) => `How do I add a second admin to our workspace?`,
  (r) => `Your API has been returning 500s on /v2/orders since ${r.time()} UTC. This is blocking our checkout.`,
  (r) => `Please delete all my personal data under GDPR.`,
  (r) => `The invoice shows the wrong VAT number for our company, can you reissue it?`,
];

export const EMAILS = [
  (r) => `From: ${email(r)}\nSubject: Invoice ${r.id('INV-')} for ${r.pick(COMPANIES)}\n\nHi,\nPlease find attached invoice ${r.id('INV-')} dated ${r.date()} for ${r.int(2, 40)} hours of consulting at $${r.int(90, 220)}/h. Total due: $${r.money(800, 9000)} by ${r.date()}. Bank: IBAN DE${r.int(10, 99)} 5001 0517 ${r.int(1000, 9999)} ${r.int(1000, 9999)} 00.\nThanks,\n${person(r)}`,
  (r) => `Hey team, quick update: the ${r.pick(['Berlin', 'Austin', 'Tokyo'])} office move is on ${r.date()}. ${person(r)} is coordinating movers; please pack desks by Thursday. Parking passes go to ${email(r)}.`,
  (r) => `Dear ${person(r)},\nWe are pleased to offer you the position of ${r.pick(['Senior Data Engineer', 'Account Executive', 'Nurse Practitioner', 'UX Designer'])} at ${r.pick(COMPANIES)} with a base salary of $${r.int(60, 210)},000, starting ${r.date()}. Please reply by ${r.date()}.`,
  (r) => `Order confirmation #${r.int(100000, 999999)}\nShip to: ${person(r)}, ${r.int(1, 999)} ${r.pick(['Main St', 'Rua Augusta', 'Calle Mayor', 'Rue de Rivoli'])}, ${r.pick(CITIES)}\nItems: ${r.int(1, 4)} x ${r.pick(PRODUCTS)} ($${r.money(20, 400)})\nEstimated delivery: ${r.date()}`,
];

export const ARTICLES = [
  (r) => `${r.pick(COMPANIES)} reported third-quarter revenue of $${r.int(1, 90)}.${r.int(1, 9)} billion, up ${r.int(2, 40)}% year over year, beating analyst estimates. Margins improved on lower logistics costs, but the company cut its full-year guidance citing weaker demand in Europe. Shares fell ${r.int(1, 12)}% in after-hours trading. The CEO said the firm will continue investing in automation and expects hiring to slow through next year.`,
  (r) => `A randomized controlled trial of ${r.int(300, 9000)} adults found that a daily ${r.int(20, 60)}-minute walk reduced systolic blood pressure by an average of ${r.int(3, 9)} mmHg over six months compared with the control group. The effect was larger among participants over 60. Researchers cautioned that adherence dropped after the third month and that the study did not measure long-term cardiovascular outcomes.`,
  (r) => `City officials in ${r.pick(CITIES)} approved a plan to convert ${r.int(3, 20)} downtown streets into pedestrian zones by ${r.int(2026, 2030)}. Business owners are divided: restaurants expect more foot traffic while delivery companies warn of longer routes. The council also allocated funds for new bike lanes and extended night bus service.`,
  (r) => `The court ruled that the platform is not liable for user uploads as long as it removes infringing content promptly after notice. The decision narrows an earlier interpretation and could affect pending cases against video-sharing sites. Dissenting judges argued that the ruling leaves rights holders without effective remedies.`,
  (r) => `Researchers released an open-source language model with ${r.int(1, 70)} billion parameters trained on ${r.int(2, 15)} trillion tokens. On coding benchmarks it matches models twice its size, which the authors attribute to data filtering and a longer training schedule. The license permits commercial use with some restrictions.`,
  (r) => `Heavy rains caused flooding across the region, displacing around ${r.int(1, 30)},000 residents. Emergency services evacuated low-lying neighborhoods and opened shelters in schools. Forecasters expect more rain through the weekend, and officials urged people to avoid travel.`,
];

export const TRANSCRIPTS = [
  (r) => `[10:02] ${person(r)}: Let's start. Main topic is the Q${r.int(1, 4)} launch.\n[10:03] ${person(r)}: Marketing assets are 80% done, waiting on legal review.\n[10:07] ${person(r)}: Engineering found a bug in payments, fix expected Wednesday.\n[10:12] ${person(r)}: If the fix slips we push launch one week. Agreed?\n[10:13] ${person(r)}: Agreed. I'll tell sales.\n[10:15] ${person(r)}: Action items: legal review by Tuesday, bug fix Wednesday, go/no-go Thursday.`,
  (r) => `Customer: Hi, my package never arrived.\nAgent: Sorry to hear that. Can I have the order number?\nCustomer: ${r.int(100000, 999999)}\nAgent: It shows delivered on ${r.date()} to the front desk.\nCustomer: Nobody got it.\nAgent: I'll open a claim with the carrier and send a replacement today.`,
  (r) => `Dr. ${person(r).split(' ')[1]}: How long have you had the chest pain?\nPatient: About two days, worse when I climb stairs.\nDr.: Any shortness of breath?\nPatient: A little. I also have a history of high blood pressure.\nDr.: We'll do an ECG and bloodwork today.`,
];

export const CONTRACT_CLAUSES = [
  (r) => `This Agreement is entered into as of ${r.date()} by and between ${r.pick(COMPANIES)} ("Provider") and ${r.pick(COMPANIES)} ("Customer"). The initial term is ${r.int(12, 36)} months and renews automatically for successive one-year terms unless either party gives ${r.int(30, 90)} days' written notice. Fees are $${r.int(2, 90)},000 per year, payable net ${r.pick([15, 30, 45])}. Either party may terminate for material breach not cured within 30 days. Liability is capped at the fees paid in the preceding 12 months.`,
  (r) => `The Tenant shall pay rent of €${r.int(600, 3500)} on the first day of each month. The security deposit equals two months' rent and will be returned within 30 days of the end of the lease, less any deductions for damage beyond normal wear and tear. Subletting requires the Landlord's prior written consent.`,
];
