import { formatMicroZ, formatOffset } from '../write/time';
import { articleContent } from './articles';
import { Ring } from './ring';
import { ALNUM, BASE58, HEX, Rng } from './rng';
import { CORPUS_END_MS, type Scale, SCALES } from './scales';
import { Snowflakes } from './snowflake';
import { endedSpace } from './spaces';
import { TextBuilder } from './text';
import type { Tour } from './tour';
import { AuthorPicker, makeUsers, type SeedUser } from './users';
import {
  ARTICLE_TITLES, CLIENTS, EMOJI, REPLY_BODIES, REPLY_OPENERS, SENTENCES, SPACE_TITLES, SPAM, TICKERS, TOPICS, WALLET_LEADS,
} from './words';

// The demo corpus generator: a deterministic stream of the service's own objects (Users, Tweets,
// article details, Spaces) in time order, handed to a sink. Parents always come before replies, ids
// grow with time, and memory stays flat (only the newest posts are remembered), so the same code
// makes 2,000 posts for a test and 1,000,000 for a benchmark.

export interface SeedSink {
  user(user: Record<string, unknown>): void;
  tweet(tweet: Record<string, unknown>): void;
  article(details: Record<string, unknown>): void;
  space(space: Record<string, unknown>): void;
}

interface Posted {
  id_str: string;
  user: SeedUser;
  conv: string;
  depth: number;
}

const DAY_MS = 86_400_000;
const RECENT = 4_000; // replies and quotes pick their target among the newest posts
const BIG_MEMBERS = 5_000;

function wallet(rng: Rng): string {
  switch (rng.int(3)) {
    case 0: return `0x${rng.chars(HEX, 40)}`;
    case 1: return `bc1q${rng.chars('023456789acdefghjklmnpqrstuvwxyz', 38)}`;
    default: return rng.chars(BASE58, 44);
  }
}

export function generateCorpus(options: { scale: Scale; seed: number }, sink: SeedSink): Tour {
  const spec = SCALES[options.scale];
  const rng = new Rng(options.seed);
  const users = makeUsers(rng, spec.users);
  for (const u of users) sink.user(u.obj);
  const writers = users.filter((u) => u.kind !== 'spam');
  const authors = new AuthorPicker(writers);
  const spammers = users.filter((u) => u.kind === 'spam');
  const popular = users.filter((u) => u.kind === 'popular');
  if (popular.length === 0) popular.push(writers[writers.length - 1]!);
  const protectedUser = users.find((u) => u.kind === 'protected')!;
  const smallIdUser = users[0]!;
  const mentionRef = (u: SeedUser) => ({ id_str: u.id_str, name: u.name, screen_name: u.screen_name });

  const flakes = new Snowflakes(7);
  const articleFlakes = new Snowflakes(9);
  const startMs = CORPUS_END_MS - spec.days * DAY_MS;
  const slotMs = (spec.days * DAY_MS) / spec.posts;
  const recent = new Ring<Posted>(RECENT);
  const bigMembers = new Ring<Posted>(BIG_MEMBERS);
  const bigRootAt = Math.floor(spec.posts * 0.08);
  const bigEndAt = Math.floor(spec.posts * 0.7);
  const articleAt = new Set(Array.from({ length: spec.articles }, (_, k) => Math.floor(((k + 0.5) * spec.posts) / spec.articles) + 1));
  let bigRoot: Posted | null = null;
  let bigReplies = 0;
  interface Thread { user: SeedUser; n: number; total: number; prev: Posted }
  let thread: Thread | null = null;
  const tour: Partial<Tour> = {};
  const note = (p: Posted) => ({ id_str: p.id_str, screen_name: p.user.screen_name });

  const counters = (u: SeedUser, boost = 1) => {
    const favorite = Math.floor(rng.heavy(1 + u.followers / 400) * boost);
    return {
      retweet_count: Math.floor(favorite / (3 + rng.int(8))),
      favorite_count: favorite,
      views_count: favorite * (20 + rng.int(150)) + rng.int(300),
      bookmark_count: Math.floor(favorite / (10 + rng.int(30))),
    };
  };

  const emit = (i: number, us: number, id: bigint, author: SeedUser, tb: TextBuilder,
    rel: { parent?: Posted; quoted?: Posted; hiddenReplies?: number; boost?: number } = {}): Posted => {
    const parent = rel.parent;
    const posted: Posted = {
      id_str: id.toString(), user: author,
      conv: parent ? parent.conv : id.toString(), depth: parent ? parent.depth + 1 : 0,
    };
    sink.tweet({
      tweet_created_at: formatMicroZ(us),
      id_str: posted.id_str,
      text: null,
      full_text: tb.text(),
      source: CLIENTS[i % 7 === 0 ? 3 : rng.int(3)],
      truncated: false,
      in_reply_to_status_id_str: parent ? parent.id_str : null,
      in_reply_to_user_id_str: parent ? parent.user.id_str : null,
      in_reply_to_screen_name: parent ? parent.user.screen_name : null,
      user: author.obj,
      quoted_status_id_str: rel.quoted ? rel.quoted.id_str : null,
      is_quote_status: rel.quoted !== undefined,
      quoted_status: null,
      retweeted_status: null,
      quote_count: 0,
      reply_count: rel.hiddenReplies ?? 0,
      ...counters(author, rel.boost),
      lang: author.lang,
      entities: tb.entities,
    });
    return posted;
  };

  const rootText = (author: SeedUser): TextBuilder => {
    const tb = new TextBuilder(rng);
    if (rng.chance(0.15)) tb.word(rng.pick(EMOJI));
    tb.word(rng.pick(SENTENCES[author.lang]!));
    if (rng.chance(0.3)) tb.word(rng.pick(EMOJI));
    if (rng.chance(0.45)) tb.hashtag(rng.pick(TOPICS));
    if (rng.chance(0.1)) tb.cashtag(rng.pick(TICKERS));
    if (rng.chance(0.15)) tb.mention(mentionRef(rng.pick(writers)));
    if (rng.chance(0.25)) tb.link(`https://example.org/notes/${rng.chars(ALNUM, 8).toLowerCase()}`);
    if (rng.chance(0.1)) tb.hashtag(rng.pick(TOPICS));
    return tb;
  };

  const pickRecent = (): Posted | null => {
    if (recent.size === 0) return null;
    const u = rng.next();
    return recent.newest(Math.floor(recent.size * u * u * u));
  };

  for (let i = 0; i < spec.posts; i++) {
    let ms = startMs + Math.floor(i * slotMs + rng.next() * slotMs * 0.9);
    let us = ms * 1000 + rng.int(1000);
    const isArticle = articleAt.has(i);
    if (isArticle) {
      // Article details print whole seconds (+00:00 form), so the post's time is a whole second.
      ms -= ms % 1000;
      us = ms * 1000;
    }
    const id = flakes.at(ms);

    if (i === bigRootAt) {
      const author = popular[0]!;
      const tb = new TextBuilder(rng).word('Big question for everyone who works with social data: what is the one cleaning step you never skip?').hashtag('opendata');
      // The platform counts replies the collection cannot return (spam, deleted): reply_count is higher.
      bigRoot = emit(i, us, id, author, tb, { hiddenReplies: 5 + rng.int(20), boost: 20 });
      bigMembers.push(bigRoot);
      recent.push(bigRoot);
      tour.large_conversation_root = { ...note(bigRoot), replies: 0, note: 'A root with direct, second-level and deeper replies' };
      continue;
    }

    if (isArticle) {
      const author = rng.chance(0.5) ? rng.pick(popular) : authors.pick(rng);
      const title = rng.pick(ARTICLE_TITLES);
      const articleId = articleFlakes.at(ms);
      const tb = new TextBuilder(rng).word(title).link(`https://example.com/i/article/${articleId}`);
      const { blocks, preview } = articleContent(rng, title);
      const entities = { ...tb.entities, timestamps: [] as unknown[] };
      const posted: Posted = { id_str: id.toString(), user: author, conv: id.toString(), depth: 0 };
      sink.article({
        tweet_created_at: formatOffset(us),
        id_str: posted.id_str,
        text: null,
        full_text: tb.text(),
        source: CLIENTS[0],
        truncated: false,
        in_reply_to_status_id_str: null,
        in_reply_to_user_id_str: null,
        in_reply_to_screen_name: null,
        user: author.obj,
        quoted_status_id_str: null,
        is_quote_status: false,
        quoted_status: null,
        retweeted_status: null,
        quote_count: 0,
        reply_count: 0,
        ...counters(author, 3),
        lang: 'en',
        entities,
        created_at: formatOffset(us),
        user_id: author.id_str,
        user_screen_name: author.screen_name,
        article: {
          published_at: formatOffset(us),
          id_str: articleId.toString(),
          title,
          preview_text: preview,
          cover_url: `https://images.example.com/article-covers/${articleId}.jpg`,
          content_state: { blocks, entityMap: [] },
          media_entities: [],
        },
      });
      if (author.kind !== 'protected') recent.push(posted);
      // Tour stops are never a protected account's posts: their details answer 404 (not public).
      if (author.kind !== 'protected') tour.article_post ??= { ...note(posted), title, note: 'A post carrying a long-form article' };
      continue;
    }

    if (thread) {
      const t: Thread = thread;
      const n: number = t.n + 1;
      const tb = new TextBuilder(rng).word(`${n}/${t.total}`).word(rng.pick(SENTENCES[t.user.lang]!));
      if (rng.chance(0.3)) tb.hashtag(rng.pick(TOPICS));
      const posted = emit(i, us, id, t.user, tb, { parent: t.prev });
      if (t.user.kind !== 'protected') recent.push(posted);
      thread = n >= t.total ? null : { user: t.user, n, total: t.total, prev: posted };
      continue;
    }

    // Until some post can be replied to, everything is a root post.
    const r = recent.size === 0 ? 0 : rng.next();
    const inBig = bigRoot !== null && i < bigEndAt && rng.chance(0.06);
    if (r < 0.4 && !inBig) {
      const author = authors.pick(rng);
      const startsThread = rng.chance(0.02);
      const total = 3 + rng.int(5);
      const tb = startsThread ? new TextBuilder(rng).word(`1/${total}`).word(rng.pick(SENTENCES[author.lang]!)).word(rng.pick(EMOJI)) : rootText(author);
      const posted = emit(i, us, id, author, tb);
      if (author.kind !== 'protected') recent.push(posted);
      if (startsThread) {
        thread = { user: author, n: 1, total, prev: posted };
        if (!tour.self_thread_root && author.kind !== 'protected') tour.self_thread_root = { ...note(posted), note: `A self-thread of ${total} posts` };
      }
      continue;
    }

    if (r < 0.45 && !inBig) {
      const quoted = pickRecent();
      const author = authors.pick(rng);
      const tb = new TextBuilder(rng).word(rng.pick(REPLY_OPENERS)).word(rng.pick(REPLY_BODIES));
      if (rng.chance(0.3)) tb.hashtag(rng.pick(TOPICS));
      const posted = emit(i, us, id, author, tb, quoted ? { quoted } : {});
      if (author.kind !== 'protected') recent.push(posted);
      if (quoted && !tour.quote_post && author.kind !== 'protected') tour.quote_post = { ...note(posted), quoted_id_str: quoted.id_str, note: 'A quote post' };
      continue;
    }

    // A reply: into the large conversation, or to one of the newest posts.
    let parent: Posted | null;
    if (inBig && bigRoot) parent = rng.chance(0.45) ? bigRoot : bigMembers.newest(rng.int(bigMembers.size));
    else parent = pickRecent();
    if (!parent) continue;
    const spam = r < 0.49 && spammers.length > 0;
    const walletReply = !spam && r < 0.515;
    const author = spam || (walletReply && rng.chance(0.5)) ? rng.pick(spammers.length ? spammers : writers) : authors.pick(rng);
    const tb = new TextBuilder(rng).mention(mentionRef(parent.user));
    if (parent.depth > 0 && rng.chance(0.3) && bigRoot && parent.conv === bigRoot.id_str) tb.mention(mentionRef(bigRoot.user));
    if (spam) {
      tb.word(rng.pick(SPAM));
      if (rng.chance(0.6)) tb.link(`https://promo.example.net/${rng.chars(ALNUM, 6)}`);
    } else if (walletReply) {
      tb.word(rng.pick(WALLET_LEADS)).word(wallet(rng));
    } else {
      tb.word(rng.pick(REPLY_OPENERS)).word(rng.pick(REPLY_BODIES));
      if (rng.chance(0.2)) tb.word(rng.pick(EMOJI));
      if (rng.chance(0.1)) tb.cashtag(rng.pick(TICKERS));
    }
    const posted = emit(i, us, id, author, tb, { parent });
    if (author.kind !== 'protected') recent.push(posted);
    if (bigRoot && posted.conv === bigRoot.id_str) {
      bigMembers.push(posted);
      bigReplies++;
      if (posted.depth >= 3 && !tour.deep_reply && author.kind !== 'protected') tour.deep_reply = { ...note(posted), depth: posted.depth, note: 'A reply three or more levels under its root' };
    }
    if (spam && !tour.spam_reply) tour.spam_reply = { ...note(posted), note: 'A spam-like reply' };
    if (walletReply && !tour.wallet_reply && author.kind !== 'protected') tour.wallet_reply = { ...note(posted), note: 'A reply carrying a wallet-like string (25+ alphanumerics)' };
  }

  const spaces = rng.shuffle(SPACE_TITLES);
  for (let k = 0; k < spec.spaces; k++) {
    const host = k === 0 ? popular[0]! : rng.chance(0.5) ? rng.pick(popular) : authors.pick(rng);
    const createdMs = startMs + Math.floor(((k + rng.next()) / spec.spaces) * (spec.days - 3) * DAY_MS);
    const space = endedSpace(rng, host, `${spaces[k % spaces.length]!}${k >= spaces.length ? ` #${Math.floor(k / spaces.length) + 1}` : ''}`, createdMs);
    sink.space(space);
    tour.space ??= { id: space.id as string, title: space.title as string, creator_screen_name: host.screen_name, note: 'An ended space with its full creator object' };
  }

  const bigUser = users.find((u) => BigInt(u.id_str) > 2n ** 53n)!;
  return {
    seed: options.seed,
    scale: options.scale,
    users: spec.users,
    posts: spec.posts,
    protected_user: { id_str: protectedUser.id_str, screen_name: protectedUser.screen_name, note: 'A protected account: its timelines answer 403' },
    ...(tour as Omit<Tour, 'seed' | 'scale' | 'users' | 'posts' | 'protected_user' | 'ids_above_2_53' | 'small_id_user'>),
    large_conversation_root: { ...tour.large_conversation_root!, replies: bigReplies },
    ids_above_2_53: { user_id_str: bigUser.id_str, post_id_str: bigRoot!.id_str, note: 'Ids above 2^53 (9007199254740992): exact only as strings' },
    small_id_user: { id_str: smallIdUser.id_str, screen_name: smallIdUser.screen_name, note: 'An early account with a short numeric id' },
  };
}
