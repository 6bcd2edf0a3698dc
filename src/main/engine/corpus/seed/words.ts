// Vocabulary of the demo corpus. Every person, handle, company, ticker and domain is invented;
// links point at the reserved example.* domains, so nothing real is named or fetched.

export const FIRST_NAMES = [
  'Avel', 'Brisa', 'Corin', 'Dalia', 'Eskel', 'Fenna', 'Galen', 'Hesper', 'Ilsa', 'Joren', 'Kestra', 'Lioran',
  'Maelis', 'Nerin', 'Orla', 'Pell', 'Quenna', 'Rowan', 'Sefa', 'Tamsin', 'Ulric', 'Vesna', 'Wren', 'Xanthe',
  'Yarrow', 'Zeno', 'Anouk', 'Bastien', 'Calla', 'Dorian', 'Elke', 'Faro', 'Greer', 'Hollis', 'Isolde', 'Juno',
];
export const LAST_NAMES = [
  'Quillfeather', 'Marrowind', 'Stonebridge', 'Ashgrove', 'Thistlewood', 'Brackenfell', 'Ondrasek', 'Velmoor',
  'Harrowgate', 'Kestrelton', 'Lindqvar', 'Morrowfield', 'Pennyweather', 'Rookhaven', 'Saltmere', 'Tallowmere',
  'Umberlee', 'Wexford-Hale', 'Yellowthorn', 'Zarkovna', 'Ellory', 'Fairbrook', 'Glimmerdale', 'Hollowell',
];
export const ORGS = ['Lantern Lab', 'Open Field Data', 'Northwind Review', 'Civic Loom', 'Marsh Signal', 'The Tidewater Desk'];
export const LOCATIONS = ['', '', 'Port Elsin', 'Vellmar', 'North Brack', 'the internet', 'Tessaly Coast', 'Orrin Valley', 'Lake Amsel', 'Somewhere on a train'];
export const BIO_PARTS = [
  'Data nerd.', 'Writes about open data.', 'Coffee first.', 'Views my own.', 'Birdwatcher.', 'Maps and models.',
  'Research engineer.', 'Slow news.', 'Sourdough person.', 'Civic tech.', 'Poll watcher.', 'Reading everything.',
];

export const TOPICS = ['opendata', 'dataviz', 'civictech', 'birding', 'rstats', 'pandas', 'maps', 'climate', 'elections', 'sourdough', 'privacy', 'transit'];
export const TICKERS = ['ZEPH', 'QUUX', 'NIMB', 'ORLA', 'BRAVX', 'TALO', 'KESTR', 'VOLN'];
export const EMOJI = ['🚀', '📊', '🐦', '☕', '🗺️', '✨', '🌧️', '📈', '🧵', '👀', '🙌', '🔥'];
export const CLIENTS = [
  '<a href="https://mobile.twitter.com" rel="nofollow">Twitter Web App</a>',
  '<a href="http://twitter.com/download/iphone" rel="nofollow">Twitter for iPhone</a>',
  '<a href="http://twitter.com/download/android" rel="nofollow">Twitter for Android</a>',
  '<a href="https://example.net/scheduler" rel="nofollow">Lantern Scheduler</a>',
];

export const SENTENCES: Record<string, string[]> = {
  en: [
    'New dataset just dropped and the missing values tell their own story',
    'Spent the morning cleaning timestamps so you do not have to',
    'Hot take: most charts need fewer colours',
    'The ferry schedule changed again and nobody updated the map',
    'If your survey has a 4 percent response rate, say so up front',
    'Finally finished the write-up on regional rainfall records',
    'Reminder that a median and a mean answer different questions',
    'Counted 41 herons on the estuary this morning',
    'Thread on what we learned from a year of open council minutes',
    'Our pipeline now dedupes on the 19-digit id, not the text',
    'Anyone else seeing odd gaps in the hourly counts since Tuesday',
    'Small multiples beat one giant chart, every single time',
    'Working notes from the transit workshop are up',
    'Please stop storing ids as floats in spreadsheets',
    'Good morning to everyone who reads the methodology section',
  ],
  de: [
    'Neuer Datensatz ist online und die Lücken sind spannend',
    'Heute früh 41 Reiher am Ufer gezählt',
    'Bitte IDs nicht als Zahlen in Tabellen speichern',
  ],
  es: [
    'Nuevo conjunto de datos publicado, los valores faltantes cuentan mucho',
    'Contamos 41 garzas en el estuario esta mañana',
    'Por favor no guarden los identificadores como números decimales',
  ],
};

export const REPLY_OPENERS = ['Agreed.', 'Not sure about this.', 'Great point.', 'Source?', 'This!', 'Counterpoint:', 'Thanks for sharing.', 'Same here.', 'Hmm.', 'Love this.'];
export const REPLY_BODIES = [
  'We saw the same pattern in the northern districts',
  'Would love to see the raw counts behind this',
  'The second chart is doing a lot of work here',
  'Did you control for the holiday week',
  'Bookmarking for the reading group',
  'That matches what the field notes say',
  'Can you share the notebook',
  'Weekly aggregation hides the spike though',
];
export const SPAM = [
  'Earn 5000 a week from home, DM me now 💰💰💰',
  'I made 300 percent in 3 days, ask me how!!! 🚀🚀',
  'Claim your free tokens before midnight 🎁 link in bio',
  'Big giveaway!! Follow and retweet to win 🔥🔥🔥',
];
export const WALLET_LEADS = [
  'Send the airdrop here:',
  'My address for the bounty:',
  'Tips welcome at',
  'Donations for the dataset hosting:',
];

export const ARTICLE_TITLES = [
  'What a year of council minutes taught us',
  'Cleaning 19-digit ids without losing your mind',
  'A field guide to estuary bird counts',
  'Why your timeline sample is not random',
  'Rainfall records, one station at a time',
  'Notes on building a reply-collection pipeline',
];
export const ARTICLE_PARAGRAPHS = [
  'We started with a simple question and a spreadsheet that was far too large to open.',
  'The first lesson is that every export format loses something, and the loss is rarely documented.',
  'Counting carefully matters more than counting quickly, especially when the source changes under you.',
  'We kept a log of every decision, which turned out to be the most useful artefact of the project.',
  'Nothing here needs special tools: a database, a notebook and patience go a long way.',
];
export const ARTICLE_BULLETS = [
  'Store ids as text, never as numbers',
  'Keep the raw payload next to the parsed fields',
  'Record when each record was retrieved',
  'Expect missing replies and say so in the methods',
  'Deduplicate on the id, not on the text',
];
export const SPACE_TITLES = ['Open data office hours', 'Chart crit night', 'Birding by ear', 'Election data Q&A', 'Transit nerds unite', 'Methods clinic', 'Friday data gossip', 'Rainfall records AMA'];
