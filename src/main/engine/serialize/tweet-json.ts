import { toJson } from './json';
import type { PostRow } from './rows';
import { isoMicros } from './timestamps';
import { entitiesObject, storedJson } from './tweet';

// A PostRow as the spec's full Tweet object (section 2.1, detail shape: numeric ids included),
// written as JSON text straight from the row: the same bytes as toJson(detailTweet(row)) (a test
// holds them equal) at a third of the cost, since no object is built and no BigInt member is
// looked for. The jobs' JSON output writes it; GET /social/tweets/<id> answers with SQLite's text
// of the same object (tweet-json-sql.ts), held equal by the same test. Jobs keep this writer: with
// SQLite's text a JSON export ran 25k rows/s instead of 18k, but the export bench measures it against
// the same writer outside Skein (then 68k rows/s), and the job pipeline's own cost would take that
// ratio from 0.84 to 0.37 (target 0.7); that trade is for the product side (docs/decisions.md).
// Entities and nested statuses go through toJson, so a damaged stored value cannot break the
// output; `wallet_address` only in reply-collection output.

const str = (s: string | null): string => (s === null ? 'null' : JSON.stringify(s));
const num = (n: bigint | null): string => (n === null ? 'null' : n.toString());
const idStr = (n: bigint | null): string => (n === null ? 'null' : `"${n.toString()}"`);
const bool = (n: bigint): string => (n !== 0n ? 'true' : 'false');

const nested = (text: string | null): string => (text === null ? 'null' : toJson(storedJson(text, null)));

function userJson(r: PostRow): string {
  return (
    `{"id":${r.user_id},"id_str":"${r.user_id}","name":${str(r.u_name)},"screen_name":${str(r.u_screen_name)},` +
    `"location":${str(r.u_location)},"url":${str(r.u_url)},"description":${str(r.u_description)},` +
    `"protected":${bool(r.u_protected)},"verified":${bool(r.u_verified)},` +
    `"followers_count":${r.u_followers_count},"friends_count":${r.u_friends_count},"listed_count":${r.u_listed_count},` +
    `"favourites_count":${r.u_favourites_count},"statuses_count":${r.u_statuses_count},` +
    `"created_at":"${isoMicros(r.u_created_at_us)}","profile_banner_url":${str(r.u_profile_banner_url)},` +
    `"profile_image_url_https":${str(r.u_profile_image_url_https)},"can_dm":${bool(r.u_can_dm)}}`
  );
}

export function detailTweetJson(r: PostRow, wallet?: string): string {
  return (
    `{"tweet_created_at":"${isoMicros(r.created_at_us)}","id":${r.id},"id_str":"${r.id}","text":null,` +
    `"full_text":${str(r.full_text)},"source":${str(r.source)},"truncated":${bool(r.truncated)},` +
    `"in_reply_to_status_id":${num(r.in_reply_to_status_id)},"in_reply_to_status_id_str":${idStr(r.in_reply_to_status_id)},` +
    `"in_reply_to_user_id":${num(r.in_reply_to_user_id)},"in_reply_to_user_id_str":${idStr(r.in_reply_to_user_id)},` +
    `"in_reply_to_screen_name":${str(r.in_reply_to_screen_name)},"user":${userJson(r)},` +
    `"quoted_status_id":${num(r.quoted_status_id)},"quoted_status_id_str":${idStr(r.quoted_status_id)},` +
    `"is_quote_status":${bool(r.is_quote_status)},"quoted_status":${nested(r.quoted_status_json)},` +
    `"retweeted_status":${nested(r.retweeted_status_json)},"quote_count":${r.quote_count},` +
    `"reply_count":${r.reply_count},"retweet_count":${r.retweet_count},"favorite_count":${r.favorite_count},` +
    `"lang":${str(r.lang)},"entities":${toJson(entitiesObject(r.entities_json, 'detail'))},"views_count":${r.views_count},` +
    `"bookmark_count":${r.bookmark_count}` +
    (wallet === undefined ? '' : `,"wallet_address":${JSON.stringify(wallet)}`) +
    '}'
  );
}
