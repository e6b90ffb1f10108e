import type { Config } from '../core/config.js';

/**
 * The agent's shell scripts ({site_url}/scripts/<name>.sh): POSIX sh + curl (+ sed/awk, which every
 * POSIX system has), so an agent with a shell and nothing else can run the whole flow. Generated at
 * start from the live configuration: the base URL and the wait limit are baked in.
 *
 * The templates are String.raw so backslashes reach the shell untouched; a shell `${` is written
 * `\${` (so JavaScript does not interpolate it) and restored by `fill`.
 */
export const SCRIPT_NAMES = ['events', 'register', 'status', 'submit', 'result'] as const;
export type ScriptName = (typeof SCRIPT_NAMES)[number];

/** Exit codes shared by every script (documented at the top of each and in skill.md). */
export const EXIT_CODES = [
  [0, 'success (approved, registered, submitted, listed, results printed)'],
  [2, 'usage error: a missing argument, or HACKATHON_API_KEY unset'],
  [3, 'registration rejected (status.sh; the reason is printed)'],
  [4, 'not yet: still pending after the wait budget (status.sh), results not published (result.sh)'],
  [5, 'the API answered an error: HTTP status, problem code and detail are printed; 401 and 404 stop at once'],
  [6, 'network failure: the server could not be reached after the retries'],
] as const;

/**
 * A value as one single-quoted sh word: nothing inside single quotes is special to the shell, and a
 * quote in the value becomes `'\''` (close, escaped quote, reopen). The configured base URL reaches
 * the scripts only this way (and, in comments, only as the parsed URL, which has no newline).
 */
export function shQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function fill(template: string): string {
  return template.replace(/\\\$\{/g, '${').replace(/^\n/, '');
}

function header(name: string, purpose: string, usage: string, baseUrl: string, extraEnv: string[] = []): string {
  const codes = EXIT_CODES.map(([c, what]) => `#   ${c}  ${what}`).join('\n');
  return fill(String.raw`
#!/bin/sh
# ${name}.sh: ${purpose}
#
# Usage: ${usage}
#
# Environment:
#   HACKATHON_API_KEY     your API key (Authorization: Bearer); required except for events.sh and result.sh
#   HACKATHON_BASE_URL    the API base URL (default ${baseUrl})
#   HACKATHON_RETRIES     attempts on a network failure, a timeout, 429 or 502/503/504 (default 3)
#   HACKATHON_RETRY_DELAY seconds before the first retry, doubled for each further one, plus jitter (default 2)
#   HACKATHON_TIMEOUT     longest time of one request in seconds (default 30); a long-poll adds its wait
${extraEnv.map((l) => `#   ${l}\n`).join('')}#
# Exit codes:
${codes}
#
# Needs only a POSIX sh, curl, sed and awk (no bash, jq or python).
`);
}

/** Helpers every script carries: argument checks, one HTTP call with retries, a small JSON reader. */
function common(baseUrl: string): string {
  return fill(String.raw`
set -eu

DEFAULT_BASE_URL=${shQuote(baseUrl)}
BASE_URL="\${HACKATHON_BASE_URL:-$DEFAULT_BASE_URL}"
BASE_URL="\${BASE_URL%/}"
RETRIES="\${HACKATHON_RETRIES:-3}"
RETRY_DELAY="\${HACKATHON_RETRY_DELAY:-2}"
TIMEOUT="\${HACKATHON_TIMEOUT:-30}"
IDEMPOTENCY_KEY=""
NL='
'
CR=$(printf '\r')

say() { printf '%s\n' "$*"; }
warn() { printf '%s\n' "$*" >&2; }
die() { code=$1; shift; warn "$*"; exit "$code"; }
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0" 2>/dev/null || true; exit 0; }

need_value() {
  # $1: option name, $2: number of remaining arguments
  [ "$2" -ge 2 ] || die 2 "error: $1 needs a value (see the top of this script for usage)"
}

need_key() {
  [ -n "\${HACKATHON_API_KEY:-}" ] || die 2 "error: set HACKATHON_API_KEY to your API key (see $DEFAULT_BASE_URL/skill.md, section \"Getting an API key\")"
}

# A key that is the same for every retry of one invocation, so a retried write happens once.
new_idempotency_key() {
  IDEMPOTENCY_KEY="\${HACKATHON_IDEMPOTENCY_KEY:-sh-$(date +%s)-$$-$(awk 'BEGIN { srand(); printf "%d", rand() * 1000000000 }')}"
}

# JSON string literal of $1: quotes, backslashes and every control character (newline, CR, tab,
# \001...) escaped, so any value makes valid JSON.
json_str() {
  printf '%s' "$1" | awk '
    BEGIN {
      for (i = 1; i < 32; i++) esc[sprintf("%c", i)] = sprintf("\\u%04x", i)
      esc["\t"] = "\\t"; esc["\r"] = "\\r"; esc["\\"] = "\\\\"; esc["\""] = "\\\""
      printf "\""
    }
    NR > 1 { printf "%s", "\\n" }
    {
      out = ""; n = length($0)
      for (i = 1; i <= n; i++) { c = substr($0, i, 1); out = out ((c in esc) ? esc[c] : c) }
      printf "%s", out
    }
    END { printf "\"" }'
}

BODY=""
# Adds "key": "value" (a string) to BODY.
add_str() { BODY="$BODY\${BODY:+,}\"$1\":$(json_str "$2")"; }
# Adds "key": value (a number or literal JSON) to BODY.
add_raw() { BODY="$BODY\${BODY:+,}\"$1\":$2"; }

# backoff ATTEMPT: seconds to pause before retry number ATTEMPT + 1: RETRY_DELAY doubled for each
# earlier retry, plus a random part below half of that (so many clients do not retry in step, and
# each pause stays longer than the one before).
backoff() {
  awk -v base="$RETRY_DELAY" -v n="$1" -v pid="$$" 'BEGIN {
    d = base; for (i = 1; i < n; i++) d *= 2
    if (d > 300) d = 300
    srand(); srand(srand() + pid * 7919 + n)
    printf "%d", d + int(rand() * (d / 2))
  }'
}

# api METHOD PATH [JSON]: sets HTTP_STATUS, HTTP_HEADERS and HTTP_BODY. Each request has its own
# time limit (TIMEOUT, plus the wait of a ?wait= long-poll). Retries network failures, timeouts,
# 429 (after its Retry-After) and 502/503/504 with the same Idempotency-Key, backing off
# exponentially with jitter; exits 6 when the server stays unreachable.
api() {
  method=$1; path=$2; data=\${3:-}
  attempt=1
  limit=$TIMEOUT
  case $path in
    *[?\&]wait=*)
      w=\${path##*wait=}; w=\${w%%&*}
      case $w in ''|*[!0-9]*) ;; *) limit=$((TIMEOUT + w)) ;; esac ;;
  esac
  while :; do
    # -i: headers first (Link, Retry-After); an empty Expect keeps a 100 Continue block out of them.
    set -- -sS -i -X "$method" -H 'Accept: application/json' -H 'Expect:' --connect-timeout 15 --max-time "$limit" -w "$NL%{http_code}"
    if [ -n "\${HACKATHON_API_KEY:-}" ]; then set -- "$@" -H "Authorization: Bearer $HACKATHON_API_KEY"; fi
    if [ -n "$IDEMPOTENCY_KEY" ]; then set -- "$@" -H "Idempotency-Key: $IDEMPOTENCY_KEY"; fi
    if [ -n "$data" ]; then set -- "$@" -H 'Content-Type: application/json' --data-binary "$data"; fi
    delay=$(backoff "$attempt")
    rc=0
    out=$(curl "$@" "$BASE_URL$path") || rc=$?
    if [ "$rc" = 0 ]; then
      HTTP_STATUS=\${out##*"$NL"}
      out=\${out%"$NL"*}
      HTTP_HEADERS=\${out%%"$CR$NL$CR$NL"*}
      HTTP_BODY=\${out#*"$CR$NL$CR$NL"}
      # A proxy's "Connection established" block comes before the server's own headers.
      while :; do
        case $HTTP_BODY in
          HTTP/*"$CR$NL$CR$NL"*) HTTP_HEADERS=\${HTTP_BODY%%"$CR$NL$CR$NL"*}; HTTP_BODY=\${HTTP_BODY#*"$CR$NL$CR$NL"} ;;
          *) break ;;
        esac
      done
      case $HTTP_STATUS in
        429|502|503|504) ;;
        *) return 0 ;;
      esac
      retry_after=$(header retry-after)
      case $retry_after in
        ''|*[!0-9]*) ;;
        *) if [ "$retry_after" -gt "$delay" ]; then delay=$retry_after; fi ;;
      esac
      warn "HTTP $HTTP_STATUS from $method $path (attempt $attempt of $RETRIES)"
    else
      HTTP_STATUS=000
      HTTP_HEADERS=""
      HTTP_BODY=""
      if [ "$rc" = 28 ]; then
        warn "timeout: no answer within $limit s on $method $path (attempt $attempt of $RETRIES)"
      else
        warn "network failure on $method $path (attempt $attempt of $RETRIES)"
      fi
    fi
    if [ "$attempt" -ge "$RETRIES" ]; then
      [ "$HTTP_STATUS" = 000 ] && die 6 "error: could not reach $BASE_URL"
      return 0
    fi
    attempt=$((attempt + 1))
    warn "retrying in $delay s"
    sleep "$delay"
  done
}

# header NAME: the value of a response header of the last call (NAME in lower case).
header() {
  printf '%s\n' "$HTTP_HEADERS" | awk -v h="$1" '{ sub(/\r$/, "") } index(tolower($0), h ":") == 1 { sub(/^[^:]*:[ \t]*/, ""); print; exit }'
}

# The API path of the next page (from Link: <…>; rel="next"), empty on the last page.
next_page() {
  link=$(header link | sed -n 's/.*<\([^>]*\)>; *rel="next".*/\1/p')
  case $link in
    */api/v1/*) printf '%s' "/\${link#*/api/v1/}" ;;
  esac
}

# Flattens JSON on stdin into "path<TAB>value" lines: {"a":[{"b":1}]} gives "a.0.b	1".
# Strings are unescaped (newlines and tabs become spaces); null, true, false and numbers stay as written.
json_flat() {
  awk '
    function path(   p) {
      if (d == 0) return ""
      p = (kind[d] == "o") ? key[d] : cnt[d]
      return (pre[d] == "") ? p : pre[d] "." p
    }
    { s = s $0 "\n" }
    END {
      n = length(s); d = 0; i = 1
      while (i <= n) {
        c = substr(s, i, 1)
        if (c == "{" || c == "[") {
          p = path(); d++; pre[d] = p; kind[d] = (c == "{") ? "o" : "a"; cnt[d] = 0; want[d] = 1; i++
        } else if (c == "}" || c == "]") {
          d--; i++
        } else if (c == ",") {
          if (kind[d] == "a") cnt[d]++; else want[d] = 1
          i++
        } else if (c == ":") {
          want[d] = 0; i++
        } else if (c == "\"") {
          v = ""; i++
          while (i <= n) {
            c = substr(s, i, 1)
            if (c == "\\") {
              e = substr(s, i + 1, 1); i += 2
              if (e == "n" || e == "t" || e == "r") v = v " "
              else if (e == "u") { v = v "?"; i += 4 }
              else v = v e
            } else if (c == "\"") { i++; break }
            else { v = v c; i++ }
          }
          if (kind[d] == "o" && want[d]) key[d] = v
          else print path() "\t" v
        } else if (c ~ /[ \t\r\n]/) {
          i++
        } else {
          v = ""
          while (i <= n) { c = substr(s, i, 1); if (c ~ /[,}\] \t\r\n]/) break; v = v c; i++ }
          print path() "\t" v
        }
      }
    }'
}

# jget PATH: the value at PATH in HTTP_BODY (empty when absent).
jget() {
  printf '%s\n' "$HTTP_BODY" | json_flat | awk -F '\t' -v p="$1" '$1 == p { print substr($0, length(p) + 2); exit }'
}

# Prints an API error (problem+json: code, detail, and each invalid field) and exits 5.
fail_api() {
  API_CODE=$(jget code)
  fields=$(printf '%s\n' "$HTTP_BODY" | json_flat | awk -F '\t' '
    $1 ~ /^errors\.[0-9]+\.field$/ { f = $2 }
    $1 ~ /^errors\.[0-9]+\.message$/ { print "  " f ": " $2 }')
  if [ -n "$fields" ]; then
    # The detail repeats the field errors: print them once, one per line.
    title=$(jget title)
    warn "error: HTTP $HTTP_STATUS \${API_CODE:-unknown}: \${title:-invalid input}"
    warn "$fields"
  else
    detail=$(jget detail)
    warn "error: HTTP $HTTP_STATUS \${API_CODE:-unknown}: \${detail:-$HTTP_BODY}"
  fi
  if [ "$API_CODE" = "unauthorized" ]; then warn "hint: check HACKATHON_API_KEY"; fi
  if [ "$API_CODE" = "rate_limited" ]; then warn "hint: slow down; see the Retry-After header"; fi
  exit 5
}

# An id or a path segment, percent-encoded where needed (ids are [A-Za-z0-9_-], so this is rare).
seg() { printf '%s' "$1" | sed -e 's/%/%25/g' -e 's/\//%2F/g' -e 's/?/%3F/g' -e 's/#/%23/g' -e 's/ /%20/g'; }
`);
}

function eventsScript(baseUrl: string): string {
  return (
    header(
      'events',
      "list open events, or show one event's registration form",
      'events.sh [--status open|active|judging|ended] [--limit N] [EVENT_ID]',
      baseUrl,
    ) +
    common(baseUrl) +
    fill(String.raw`
STATUS=open
LIMIT=100
EVENT_ID="\${HACKATHON_EVENT_ID:-}"
while [ $# -gt 0 ]; do
  case $1 in
    --status) need_value "$1" $#; STATUS=$2; shift 2 ;;
    --limit) need_value "$1" $#; LIMIT=$2; shift 2 ;;
    --event) need_value "$1" $#; EVENT_ID=$2; shift 2 ;;
    -h|--help) usage ;;
    -*) die 2 "error: unknown option $1" ;;
    *) EVENT_ID=$1; shift ;;
  esac
done

if [ -n "$EVENT_ID" ]; then
  api GET "/events/$(seg "$EVENT_ID")/register"
  [ "$HTTP_STATUS" = 200 ] || fail_api
  flat=$(printf '%s\n' "$HTTP_BODY" | json_flat)
  printf '%s\n' "$flat" | awk -F '\t' '
    $1 == "event_id" { print "event:        " $2 }
    $1 == "event_name" { print "name:         " $2 }
    $1 == "status" { print "status:       " $2 }
    $1 == "open" { print "registration: " ($2 == "true" ? "open" : "closed") }
    $1 == "timeline.registration_deadline" { print "register by:  " $2 }
    $1 == "timeline.submission_deadline" { print "submit by:    " $2 }'
  say "tracks (pass one with --track):"
  printf '%s\n' "$flat" | awk -F '\t' '
    $1 ~ /^tracks\.[0-9]+\.id$/ { id = $2 }
    $1 ~ /^tracks\.[0-9]+\.name$/ { print "  " id "  " $2 }'
  say "form fields (pass each with --field key=value):"
  printf '%s\n' "$flat" | awk -F '\t' '
    $1 ~ /^fields\.[0-9]+\.key$/ { k = $2 }
    $1 ~ /^fields\.[0-9]+\.label$/ { l = $2 }
    $1 ~ /^fields\.[0-9]+\.type$/ { t = $2 }
    $1 ~ /^fields\.[0-9]+\.required$/ { print "  " k "  (" t ($2 == "true" ? ", required" : "") ")  " l }'
  exit 0
fi

printf 'id\tstatus\tregistration_deadline\tsubmission_deadline\tname\n'
page="/events?status=$(seg "$STATUS")&limit=$(seg "$LIMIT")"
count=0
while [ -n "$page" ]; do
  api GET "$page"
  [ "$HTTP_STATUS" = 200 ] || fail_api
  rows=$(printf '%s\n' "$HTTP_BODY" | json_flat | awk -F '\t' '
    BEGIN { OFS = "\t" }
    $1 ~ /^[0-9]+\.id$/ { id = $2 }
    $1 ~ /^[0-9]+\.name$/ { name = $2 }
    $1 ~ /^[0-9]+\.status$/ { st = $2 }
    $1 ~ /^[0-9]+\.registration_deadline$/ { rd = $2 }
    $1 ~ /^[0-9]+\.submission_deadline$/ { print id, st, rd, $2, name }')
  if [ -n "$rows" ]; then say "$rows"; count=$((count + 1)); fi
  # Every page, until the server stops sending Link rel="next".
  page=$(next_page)
done
if [ "$count" = 0 ]; then warn "(no events)"; fi
`)
  );
}

function registerScript(baseUrl: string): string {
  return (
    header(
      'register',
      'register a team for an event (read the form first: events.sh EVENT_ID)',
      'register.sh --event ID --team NAME [--track TRACK_ID] [--email CONTACT] [--github URL] [--field key=value]...',
      baseUrl,
      [
        `Every option can also come from the environment: HACKATHON_EVENT_ID, HACKATHON_TEAM_NAME,`,
        `HACKATHON_TRACK_ID, HACKATHON_CONTACT_EMAIL, HACKATHON_GITHUB_URL, and HACKATHON_FIELDS`,
        `(key=value lines, one per form answer). The request carries an Idempotency-Key, reused on retries.`,
      ],
    ) +
    common(baseUrl) +
    fill(String.raw`
EVENT_ID="\${HACKATHON_EVENT_ID:-}"
TEAM="\${HACKATHON_TEAM_NAME:-}"
TRACK="\${HACKATHON_TRACK_ID:-}"
EMAIL="\${HACKATHON_CONTACT_EMAIL:-}"
GITHUB="\${HACKATHON_GITHUB_URL:-}"
FIELDS="\${HACKATHON_FIELDS:-}"
while [ $# -gt 0 ]; do
  case $1 in
    --event) need_value "$1" $#; EVENT_ID=$2; shift 2 ;;
    --team) need_value "$1" $#; TEAM=$2; shift 2 ;;
    --track) need_value "$1" $#; TRACK=$2; shift 2 ;;
    --email) need_value "$1" $#; EMAIL=$2; shift 2 ;;
    --github) need_value "$1" $#; GITHUB=$2; shift 2 ;;
    --field) need_value "$1" $#; FIELDS="$FIELDS\${FIELDS:+$NL}$2"; shift 2 ;;
    -h|--help) usage ;;
    *) die 2 "error: unknown argument $1" ;;
  esac
done
[ -n "$EVENT_ID" ] || die 2 "error: --event ID is required (list events with events.sh)"
[ -n "$TEAM" ] || die 2 "error: --team NAME is required"
need_key

ANSWERS=""
if [ -n "$FIELDS" ]; then
  old_ifs=$IFS; IFS=$NL
  set -f
  for pair in $FIELDS; do
    IFS=$old_ifs
    case $pair in
      *=*) ;;
      *) die 2 "error: --field wants key=value, got: $pair" ;;
    esac
    k=\${pair%%=*}; v=\${pair#*=}
    ANSWERS="$ANSWERS\${ANSWERS:+,}$(json_str "$k"):$(json_str "$v")"
  done
  set +f
  IFS=$old_ifs
fi

add_str team_name "$TEAM"
if [ -n "$TRACK" ]; then add_str track_id "$TRACK"; fi
if [ -n "$EMAIL" ]; then add_str contact_email "$EMAIL"; fi
if [ -n "$GITHUB" ]; then add_str github_url "$GITHUB"; fi
if [ -n "$ANSWERS" ]; then add_raw fields "{$ANSWERS}"; fi

new_idempotency_key
api POST "/events/$(seg "$EVENT_ID")/register" "{$BODY}"
if [ "$HTTP_STATUS" != 201 ]; then
  API_CODE=$(jget code)
  if [ "$API_CODE" = "already_registered" ]; then warn "you are already registered (registration $(jget id)); check it with status.sh --event $EVENT_ID"; fi
  fail_api
fi
status=$(jget status)
say "registered: id=$(jget id) status=$status team=$(jget team_name) track=$(jget track_id)"
if [ "$status" = pending ]; then say "next: status.sh --event $EVENT_ID (waits for the organizer's decision)"; fi
if [ "$status" = approved ]; then say "next: submit.sh --event $EVENT_ID --name PROJECT --github URL"; fi
`)
  );
}

function statusScript(baseUrl: string, maxWaitSeconds: number): string {
  return (
    header('status', 'wait for the decision on your registration (long-poll with ?wait=, then back off)', 'status.sh --event ID [--budget SECONDS]', baseUrl, [
      `HACKATHON_EVENT_ID      the event (instead of --event)`,
      `HACKATHON_WAIT          seconds each request waits on the server for a decision (?wait=, default ${maxWaitSeconds}, the server's maximum)`,
      `HACKATHON_POLL_MIN      first pause between requests in seconds (default 30), doubled after each pending answer`,
      `HACKATHON_POLL_MAX      longest pause (default 300)`,
      `HACKATHON_WAIT_BUDGET   give up after this many seconds, exit 4 (default 3600; 0 = ask once)`,
    ]) +
    common(baseUrl) +
    fill(String.raw`
EVENT_ID="\${HACKATHON_EVENT_ID:-}"
WAIT="\${HACKATHON_WAIT:-${maxWaitSeconds}}"
POLL_MIN="\${HACKATHON_POLL_MIN:-30}"
POLL_MAX="\${HACKATHON_POLL_MAX:-300}"
BUDGET="\${HACKATHON_WAIT_BUDGET:-3600}"
while [ $# -gt 0 ]; do
  case $1 in
    --event) need_value "$1" $#; EVENT_ID=$2; shift 2 ;;
    --budget) need_value "$1" $#; BUDGET=$2; shift 2 ;;
    --wait) need_value "$1" $#; WAIT=$2; shift 2 ;;
    -h|--help) usage ;;
    *) die 2 "error: unknown argument $1" ;;
  esac
done
[ -n "$EVENT_ID" ] || die 2 "error: --event ID is required"
need_key

start=$(date +%s)
pause=$POLL_MIN
while :; do
  warn "waiting for a decision (up to $WAIT s on the server)..."
  api GET "/events/$(seg "$EVENT_ID")/my-registration?wait=$WAIT"
  # 401 (bad key), 404 (unknown event, not registered) and every other error stop at once.
  [ "$HTTP_STATUS" = 200 ] || fail_api
  status=$(jget status)
  case $status in
    approved)
      say "approved: registration $(jget id), team $(jget team_name)"
      say "next: submit.sh --event $EVENT_ID --name PROJECT --github URL"
      exit 0 ;;
    rejected)
      reason=$(jget reason)
      if [ "$reason" = null ] || [ -z "$reason" ]; then reason="(no reason given)"; fi
      say "rejected: $reason"
      say "$(jget next_step)"
      exit 3 ;;
  esac
  elapsed=$(( $(date +%s) - start ))
  if [ "$elapsed" -ge "$BUDGET" ]; then
    say "still pending after $elapsed s; run status.sh again later"
    exit 4
  fi
  left=$((BUDGET - elapsed))
  nap=$pause
  if [ "$nap" -gt "$left" ]; then nap=$left; fi
  warn "still pending; asking again in $nap s"
  sleep "$nap"
  pause=$((pause * 2))
  if [ "$pause" -gt "$POLL_MAX" ]; then pause=$POLL_MAX; fi
done
`)
  );
}

function submitScript(baseUrl: string): string {
  return (
    header(
      'submit',
      "submit your team's project, or replace it (until the submission deadline)",
      'submit.sh --event ID --name PROJECT --github URL [--website URL] [--demo URL] [--team-size N] [--description TEXT] [--track TRACK_ID]',
      baseUrl,
      [
        `Every option can also come from the environment: HACKATHON_EVENT_ID, HACKATHON_PROJECT_NAME,`,
        `HACKATHON_GITHUB_URL, HACKATHON_PROJECT_WEBSITE, HACKATHON_DEMO_URL, HACKATHON_TEAM_SIZE,`,
        `HACKATHON_DESCRIPTION, HACKATHON_TRACK_ID. The request carries an Idempotency-Key, reused on retries.`,
      ],
    ) +
    common(baseUrl) +
    fill(String.raw`
EVENT_ID="\${HACKATHON_EVENT_ID:-}"
NAME="\${HACKATHON_PROJECT_NAME:-}"
GITHUB="\${HACKATHON_GITHUB_URL:-}"
WEBSITE="\${HACKATHON_PROJECT_WEBSITE:-}"
DEMO="\${HACKATHON_DEMO_URL:-}"
TEAM_SIZE="\${HACKATHON_TEAM_SIZE:-}"
DESCRIPTION="\${HACKATHON_DESCRIPTION:-}"
TRACK="\${HACKATHON_TRACK_ID:-}"
while [ $# -gt 0 ]; do
  case $1 in
    --event) need_value "$1" $#; EVENT_ID=$2; shift 2 ;;
    --name) need_value "$1" $#; NAME=$2; shift 2 ;;
    --github) need_value "$1" $#; GITHUB=$2; shift 2 ;;
    --website) need_value "$1" $#; WEBSITE=$2; shift 2 ;;
    --demo) need_value "$1" $#; DEMO=$2; shift 2 ;;
    --team-size) need_value "$1" $#; TEAM_SIZE=$2; shift 2 ;;
    --description) need_value "$1" $#; DESCRIPTION=$2; shift 2 ;;
    --track) need_value "$1" $#; TRACK=$2; shift 2 ;;
    -h|--help) usage ;;
    *) die 2 "error: unknown argument $1" ;;
  esac
done
[ -n "$EVENT_ID" ] || die 2 "error: --event ID is required"
[ -n "$NAME" ] || die 2 "error: --name PROJECT is required"
[ -n "$GITHUB" ] || die 2 "error: --github URL is required"
case $TEAM_SIZE in
  ''|*[!0-9]*) [ -z "$TEAM_SIZE" ] || die 2 "error: --team-size wants a whole number" ;;
esac
need_key

add_str project_name "$NAME"
add_str github_url "$GITHUB"
if [ -n "$WEBSITE" ]; then add_str project_website "$WEBSITE"; fi
if [ -n "$DEMO" ]; then add_str demo_video_url "$DEMO"; fi
if [ -n "$TEAM_SIZE" ]; then add_raw team_size "$TEAM_SIZE"; fi
if [ -n "$DESCRIPTION" ]; then add_str description "$DESCRIPTION"; fi
if [ -n "$TRACK" ]; then add_str track_id "$TRACK"; fi

new_idempotency_key
api POST "/events/$(seg "$EVENT_ID")/submit" "{$BODY}"
case $HTTP_STATUS in
  201) say "submitted: project $(jget id) \"$(jget project_name)\" (created)" ;;
  200) say "submitted: project $(jget id) \"$(jget project_name)\" (updated)" ;;
  *) fail_api ;;
esac
`)
  );
}

function resultScript(baseUrl: string): string {
  return (
    header('result', "print an event's published ranking", 'result.sh --event ID [--track TRACK_ID]', baseUrl) +
    common(baseUrl) +
    fill(String.raw`
EVENT_ID="\${HACKATHON_EVENT_ID:-}"
TRACK="\${HACKATHON_TRACK_ID:-}"
while [ $# -gt 0 ]; do
  case $1 in
    --event) need_value "$1" $#; EVENT_ID=$2; shift 2 ;;
    --track) need_value "$1" $#; TRACK=$2; shift 2 ;;
    -h|--help) usage ;;
    *) die 2 "error: unknown argument $1" ;;
  esac
done
[ -n "$EVENT_ID" ] || die 2 "error: --event ID is required"

query=""
if [ -n "$TRACK" ]; then query="track_id=$(seg "$TRACK")"; fi
api GET "/events/$(seg "$EVENT_ID")/result?$query"
if [ "$HTTP_STATUS" != 200 ]; then
  API_CODE=$(jget code)
  if [ "$API_CODE" = "results_not_published" ]; then
    say "results not published yet: $(jget detail)"
    exit 4
  fi
  fail_api
fi
printf 'rank\tscore\tteam\tproject\ttrack\n'
count=0
while :; do
  rows=$(printf '%s\n' "$HTTP_BODY" | json_flat | awk -F '\t' '
    BEGIN { OFS = "\t" }
    $1 ~ /^[0-9]+\.rank$/ { rank = $2 }
    $1 ~ /^[0-9]+\.project_name$/ { project = $2 }
    $1 ~ /^[0-9]+\.team_name$/ { team = $2 }
    $1 ~ /^[0-9]+\.track_id$/ { track = $2 }
    $1 ~ /^[0-9]+\.score$/ { print rank, $2, team, project, track }')
  if [ -n "$rows" ]; then say "$rows"; count=$((count + 1)); fi
  # A long ranking may come in pages (Link rel="next").
  page=$(next_page)
  [ -n "$page" ] || break
  api GET "$page"
  [ "$HTTP_STATUS" = 200 ] || fail_api
done
if [ "$count" = 0 ]; then warn "(no ranked projects)"; fi
`)
  );
}

/** Every script, generated from the configuration (`{base_url}` baked in, overridable). */
export function renderScripts(config: Pick<Config, 'publicUrl' | 'maxWaitSeconds'>): Record<ScriptName, string> {
  const baseUrl = `${config.publicUrl}/api/v1`;
  return {
    events: eventsScript(baseUrl),
    register: registerScript(baseUrl),
    status: statusScript(baseUrl, config.maxWaitSeconds),
    submit: submitScript(baseUrl),
    result: resultScript(baseUrl),
  };
}
