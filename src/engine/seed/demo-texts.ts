import type { Faker } from '@faker-js/faker';

/*
 * Plain English for demo records, built from small word lists: a subject reads like a subject,
 * a reply like a reply, a note like a note. Never placeholder Latin: people judge an application
 * by its demo, and a screen full of "lorem ipsum" hides whether the layout works for real text.
 */

const THINGS = [
  'invoice export',
  'sign-in page',
  'mobile app',
  'weekly report',
  'search',
  'order form',
  'calendar sync',
  'CSV import',
  'dashboard',
  'password reset email',
  'billing page',
  'user list',
  'file upload',
  'notification settings page',
  'printer setup',
  'shared inbox',
  'team calendar',
  'API key',
  'price list',
  'checkout',
];

const PROBLEMS = [
  'stopped working after the last update',
  'is very slow this morning',
  'shows an error when I save',
  'logs me out every few minutes',
  'does not load on my phone',
  'sends the same email twice',
  'lost the changes I made yesterday',
  'shows the wrong totals',
  'times out for large files',
  'is missing two of our users',
  'cannot be opened by my colleague',
  'has the wrong date format',
];

const QUESTIONS = [
  'How do I add a second administrator?',
  'Can we change the billing address on our account?',
  "Where can I download last month's invoice?",
  'Is there a way to export all our data?',
  'How do I move a user to another team?',
  'Can you extend our trial by two weeks?',
  'Which browsers do you support?',
  'How do I turn off the daily summary email?',
];

const CUSTOMER_LINES = [
  'Thanks for getting back to me so quickly.',
  'I have attached a screenshot of the error.',
  'It happens every time I press Save.',
  'This is blocking our month-end close.',
  'Two of my colleagues see the same thing.',
  'I tried another browser and it did not help.',
  'It worked fine until Tuesday.',
  'Could you let me know when this is fixed?',
  'It works now, thank you!',
  'We are on the premium plan, if that matters.',
  'I cleared the cache as you suggested, but the problem is still there.',
];

const AGENT_LINES = [
  'Thanks for reporting this.',
  'I can reproduce the problem on our side.',
  'Could you tell me which browser and version you use?',
  'We have deployed a fix; please try again.',
  'I have passed this on to our engineering team.',
  'Could you send us the exact time it happened?',
  'As a workaround, you can export the report as a PDF.',
  'I have reset your session; please sign in again.',
  'The change will be live by the end of the day.',
  'Let me know if there is anything else I can help with.',
  'I have updated your account settings.',
  'This is a known issue and a fix is scheduled for next week.',
];

const NOTE_LINES = [
  'Met at the trade fair in March.',
  'Prefers to be contacted by email.',
  'Budget is approved for this quarter.',
  'Decision expected after their board meeting.',
  'Asked for a reference customer in the same industry.',
  'Follow up next week with an updated quote.',
  'Legal review of the contract is in progress.',
  'They are comparing us with two other vendors.',
  'Wants a demo for the whole team.',
  'Renewal is due at the end of the year.',
  'Introduced by an existing customer.',
  'They chose a cheaper competitor.',
  'The project is on hold until next year.',
  'Agreed on the terms by phone.',
];

const TRANSITION_LINES = [
  'As discussed on the call this morning.',
  'See the notes for the details.',
  'Agreed with the team.',
  'Done as requested.',
  'Following our meeting today.',
  'Confirmed by email.',
];

const STEPS = [
  'Open the settings page',
  'Choose the report for last month',
  'Click Export',
  'Sign out and sign in again',
  'Open the same page on a phone',
  'Press Save',
  'Wait for the upload to finish',
  'Refresh the page',
];

/** Topics an article, a tag or a category is about: a newsroom's words, not a product's. */
const TOPICS = [
  'city council',
  'local schools',
  'public transport',
  'housing',
  'climate',
  'elections',
  'football',
  'cycling',
  'theatre',
  'film',
  'music',
  'health',
  'science',
  'technology',
  'small business',
  'food',
  'travel',
  'weather',
];

const HEADLINE_PATTERNS: readonly ((topic: string, place: string) => string)[] = [
  (topic, place) => `What the new ${topic} plan means for ${place}`,
  (topic, place) => `${place} votes on ${topic} next month`,
  (topic) => `Five questions about ${topic}, answered`,
  (topic, place) => `A week of ${topic} in ${place}`,
  (topic) => `Why ${topic} is back on the agenda`,
  (topic, place) => `${place} residents speak out on ${topic}`,
];

const ARTICLE_LINES = [
  'The decision was announced on Monday after weeks of debate.',
  'Residents were invited to a public meeting at the town hall.',
  'Figures published this week show a clear change from last year.',
  'Not everyone agrees with the plan.',
  'The first results are expected in the spring.',
  'Local groups have asked for more time to respond.',
  'The council says the cost will be shared over three years.',
  'Experts we spoke to expect the trend to continue.',
  'Tickets go on sale at the end of the month.',
  'A full programme is available on the organisers’ website.',
  'Readers have written in with their own experiences.',
  'We will follow the story as it develops.',
];

const DEAL_KINDS = ['renewal', 'expansion', 'pilot', 'licence', 'onboarding', 'support contract', 'upgrade'];
const PLAIN_TOPICS = ['review', 'plan', 'update', 'request', 'proposal', 'checklist', 'summary'];
const INDUSTRIES = [
  'Software',
  'Retail',
  'Manufacturing',
  'Healthcare',
  'Finance',
  'Education',
  'Logistics',
  'Energy',
  'Media',
  'Hospitality',
];

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Entities whose records are written to be read: articles, posts, stories. */
const ARTICLE_ENTITY = /article|post|story|stories|news|blog|page|doc/;
/** Entities (or fields) that name what something is about: tags, topics, categories. */
const TOPIC_ENTITY = /tag|topic|categor|keyword/;

/** An article's headline: a topic and a place. */
function headline(faker: Faker): string {
  const pattern = faker.helpers.arrayElement(HEADLINE_PATTERNS);
  return capitalise(pattern(faker.helpers.arrayElement(TOPICS), faker.location.city()));
}

/** What a record's title says, from what the entity is called: a ticket's subject, a deal's name. */
export function titleText(faker: Faker, entityName: string, about?: string): string {
  const entity = entityName.toLowerCase();
  if (/ticket|issue|request|case|incident|bug|support/.test(entity)) {
    return faker.helpers.weightedArrayElement([
      { weight: 3, value: () => `${capitalise(faker.helpers.arrayElement(THINGS))} ${faker.helpers.arrayElement(PROBLEMS)}` },
      { weight: 1, value: () => faker.helpers.arrayElement(QUESTIONS) },
    ])();
  }
  if (/deal|opportunit|order|quote|contract|sale/.test(entity)) {
    return `${about ?? faker.company.name()} ${faker.helpers.arrayElement(DEAL_KINDS)}`;
  }
  if (ARTICLE_ENTITY.test(entity)) return headline(faker);
  if (TOPIC_ENTITY.test(entity)) return capitalise(faker.helpers.arrayElement(TOPICS));
  return `${capitalise(faker.commerce.productAdjective().toLowerCase())} ${faker.commerce.product().toLowerCase()} ${faker.helpers.arrayElement(PLAIN_TOPICS)}`;
}

/** A short text for a field whose name says what it holds, or null when the name says nothing. */
export function namedText(faker: Faker, fieldName: string, entityName: string): string | null {
  const name = fieldName.toLowerCase();
  const entity = entityName.toLowerCase();
  if (name.includes('first')) return faker.person.firstName();
  if (name.includes('last') || name === 'surname') return faker.person.lastName();
  if (/company|organi[sz]ation|employer|account/.test(name)) return faker.company.name();
  if (name === 'name' || name === 'fullname' || name === 'displayname') {
    if (/contact|person|people|customer|member|employee|user|author|student|patient|lead/.test(entity)) return faker.person.fullName();
    if (/company|organi[sz]ation|account|client|vendor|supplier|partner|team/.test(entity)) return faker.company.name();
    return titleText(faker, entityName);
  }
  if (name.includes('job') || name === 'role' || name === 'position') return faker.person.jobTitle();
  if (TOPIC_ENTITY.test(name)) return capitalise(faker.helpers.arrayElement(TOPICS));
  if (name.includes('industry') || name.includes('sector')) return faker.helpers.arrayElement(INDUSTRIES);
  if (name.includes('domain') || name.includes('host')) return faker.internet.domainName();
  if (name.includes('city')) return faker.location.city();
  if (name.includes('country')) return faker.location.country();
  if (name.includes('street') || name.includes('address')) return faker.location.streetAddress();
  if (name.includes('zip') || name.includes('postcode') || name.includes('postal')) return faker.location.zipCode();
  if (name.includes('phone') || name.includes('mobile')) return faker.phone.number({ style: 'national' });
  if (name.includes('color') || name.includes('colour')) return faker.color.human();
  if (name.includes('code') || name.includes('sku') || name.includes('serial') || name.includes('reference'))
    return faker.string.alphanumeric({ length: 8, casing: 'upper' });
  return null;
}

type TextKind = 'problem' | 'conversation' | 'note' | 'article' | 'mixed';

const SUPPORT_ENTITY = /ticket|issue|request|case|incident|bug|support/;
const SALES_ENTITY = /deal|opportunit|lead|account|compan|contact|client|customer|quote|order|contract/;

/** What a long text of this field holds: a problem report, a message in a conversation, a note. */
function kindOf(fieldName: string, entityName: string): TextKind {
  const name = fieldName.toLowerCase();
  const entity = entityName.toLowerCase();
  if (/note|remark|memo/.test(name) || /note|activit|meeting|call/.test(entity)) return 'note';
  if (ARTICLE_ENTITY.test(entity)) return 'article';
  if (/body|comment|reply|message|answer/.test(name)) return 'conversation';
  if (SUPPORT_ENTITY.test(entity)) return 'problem';
  if (SALES_ENTITY.test(entity)) return 'note';
  return 'mixed';
}

function sentenceOf(faker: Faker, kind: TextKind): string {
  switch (kind) {
    case 'note':
      return faker.helpers.arrayElement(NOTE_LINES);
    case 'conversation':
      return faker.helpers.arrayElement(faker.datatype.boolean() ? CUSTOMER_LINES : AGENT_LINES);
    case 'problem':
      return faker.datatype.boolean({ probability: 0.6 })
        ? `The ${faker.helpers.arrayElement(THINGS)} ${faker.helpers.arrayElement(PROBLEMS)}.`
        : faker.helpers.arrayElement(CUSTOMER_LINES);
    case 'article':
      return faker.helpers.arrayElement(ARTICLE_LINES);
    case 'mixed':
      return sentenceOf(faker, faker.helpers.arrayElement(['problem', 'note'] as const));
  }
}

/** Why someone took a workflow step, in words that fit any step. */
export function transitionComment(faker: Faker): string {
  return faker.helpers.arrayElement(TRANSITION_LINES);
}

/** One sentence of the kind the field holds: a reply in a conversation, a note, a description. */
export function sentence(faker: Faker, fieldName: string, entityName = ''): string {
  return sentenceOf(faker, kindOf(fieldName, entityName));
}

/** A few sentences: a short line for a text field, paragraphs (a problem with its steps) for Markdown. */
export function paragraphs(faker: Faker, fieldName: string, entityName: string, markdown: boolean): string {
  const kind = kindOf(fieldName, entityName);
  // No sentence twice in one text: people do not repeat themselves within a message.
  const used = new Set<string>();
  const fresh = () => {
    let line = sentenceOf(faker, kind);
    for (let attempt = 0; attempt < 5 && used.has(line); attempt++) line = sentenceOf(faker, kind);
    used.add(line);
    return line;
  };
  const paragraph = () => faker.helpers.multiple(fresh, { count: { min: 1, max: 3 } }).join(' ');
  if (!markdown) return paragraph();
  const parts = faker.helpers.multiple(paragraph, { count: { min: 1, max: 3 } });
  if (kind === 'problem' && faker.datatype.boolean({ probability: 0.3 })) {
    parts.splice(
      1,
      0,
      ['Steps to reproduce:', ...faker.helpers.arrayElements(STEPS, { min: 2, max: 4 }).map((s, i) => `${i + 1}. ${s}`)].join('\n'),
    );
  }
  return parts.join('\n\n');
}
