/**
 * Shared technique vocabulary (regex source fragments) so rules agree on what a credential source,
 * a network sink or a shell is. Fragments are bounded and alternation-only (ReDoS-checked through
 * the rules that embed them).
 */

/**
 * Files and stores that hold credentials or private history. A dotfile name never follows an
 * identifier: `process.env.NAME` and `import.meta.env.NAME` read one named variable, not a `.env` file.
 */
export const CREDENTIAL_SOURCE =
  String.raw`(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|/home/[\w.-]{1,32}|/root|os\.path\.expanduser\(\s{0,2}["']~|Path\.home\(\)|homedir\(\))?[/\\"' ,+]{0,6}(?<![\w$\])])\.(?:ssh(?:/|\b)|aws/credentials|aws\b|gnupg|netrc|git-credentials|docker/config\.json|kube/config|npmrc|pypirc|config/gcloud|azure|bash_history|zsh_history|env\b(?!\.(?:example|sample|template|tmpl|dist|defaults?)\b))|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\bauthorized_keys\b|\bknown_hosts\b|/etc/(?:shadow|passwd|sudoers)\b|\bLogin Data\b|\bCookies\b[^\n]{0,40}(?:Chrome|Firefox|sqlite)|\bkeychain\b|\bwallet\.dat\b|\b(?:printenv|env)\s{0,3}(?:\||>|$)|\bprintenv\s{0,3}\)|\x60\s{0,2}(?:env|printenv)\s{0,2}\x60|\bos\.environ\b(?!\s{0,2}(?:\.get|\[))|\b__import__\(\s{0,2}["']os["']\s{0,2}\)\.environ\b(?!\s{0,2}(?:\.get|\[))|\bprocess\.env\b(?!\s{0,2}(?:\.|\[))|\bGet-ChildItem\s{1,3}env:|\bget_(?:frozen_)?credentials\s{0,2}\(|\bsecurity\s{1,3}find-(?:generic|internet)-password\b|\baws\s{1,3}configure\s{1,3}get\s{1,3}aws_(?:secret_access_key|session_token)\b|\bkubectl\s{1,3}config\s{1,3}view\b[^\n|;]{0,40}--raw\b|\bgit\s{1,3}credential\s{1,3}fill\b|\$\(\s{0,2}(?:env|printenv)\s{0,2}\)`;

/** Commands and APIs that send data off the machine. */
export const NETWORK_SINK =
  String.raw`\bcurl\b|\bwget\b|\bnc\b|\bncat\b|\bnetcat\b|\bsocat\b|\btelnet\b|\bscp\b|\brsync\b[^\n]{0,80}:|\bsftp\b|\bftp\b|\bInvoke-WebRequest\b|\bInvoke-RestMethod\b|\biwr\b|\birm\b|\bNet\.WebClient\b|\brequests\.(?:post|put|get|patch)\b|\bhttpx\.(?:post|put|get)\b|\burllib\.request\b|\burlopen\b|\bhttp\.client\b|\bfetch\(|\baxios\b|\bhttps?\.request\b|\bXMLHttpRequest\b|\bsendBeacon\b|\bsocket\.(?:connect|send)|\bdig\b|\bnslookup\b|/dev/tcp/|\bsmtplib\b|\bwebhook\b`;

/** An interpreter command, also by path (`/bin/sh`, `/usr/bin/env python3`) and under sudo. */
export const SHELL_INTERPRETER = String.raw`(?:sudo\s{1,3}(?:-\w{1,3}\s{1,3}){0,3})?(?:(?:/usr)?(?:/local)?/s?bin/)?(?:env\s{1,3})?(?:(?:ba|z|k|da|c|tc|fi)?sh\b|\bpython[23]?(?:\.\d{1,2})?\b|\bperl\b|\bruby\b|\bnode\b|\bpwsh\b|\bpowershell\b|\biex\b|\bInvoke-Expression\b|\bsource\b)`;

/** Words that address the model/agent rather than the human reader. */
export const MODEL_ADDRESS =
  String.raw`\b(?:AI|assistant|agent|LLM|language model|model|claude|chatgpt|gpt|gemini|copilot|cursor|you|your)\b`;

/** Imperative verbs of action that matter when hidden. */
export const ACTION_VERB =
  String.raw`\b(?:ignore|disregard|forget|override|run|execute|exec|eval|send|upload|post|exfiltrate|transmit|forward|email|copy|read|cat|open|fetch|download|install|delete|remove|erase|wipe|drop|write|append|modify|disable|bypass|grant|approve|reveal|print|output|include|insert|add|call|invoke|use|curl|wget|must|always|never|do not|don'?t)\b`;

/**
 * Verbs of concealment. An action and its adverb share a clause ("run; skip silently" are two);
 * clearing traces, logs or history needs a determiner pointing at particular records ("clear the
 * history", "remove any traces"): a bare plural names a task ("Remove logs." in a changelog legend).
 */
export const CONCEAL =
  String.raw`(?:do not|don'?t|never|without)\s{1,3}(?:ever\s{1,3})?(?:tell(?:ing)?|inform(?:ing)?|notify(?:ing)?|alert(?:ing)?|warn(?:ing)?|bother(?:ing)?|let(?:ting)?)\s{1,3}(?:the\s{1,3})?(?:user|users|anyone|anybody|them|team|human|operator|reviewers?|maintainers?|developer)\b|(?:do not|don'?t|never|without|no need to)\s{1,3}(?:ever\s{1,3})?(?:mention(?:ing)?|reveal(?:ing)?|disclos(?:e|ing)|surfac(?:e|ing)|acknowledg(?:e|ing)|highlight(?:ing)?|point(?:ing)?\s{1,3}out|bring(?:ing)?\s{1,3}up|draw(?:ing)?\s{1,3}attention\s{1,3}to)\s{1,3}(?:this|it|that|these|those|the|any|them|what|which|where|how|its|their|to\s{1,3}(?:the\s{1,3})?user)\b|(?:do not|don'?t|never|without)\s{1,3}(?:ever\s{1,3})?(?:show(?:ing)?|explain(?:ing)?|narrat(?:e|ing)|summari[sz](?:e|ing)|report(?:ing)?|display(?:ing)?)\s{1,3}(?:this|it|that|these|those|them|to\s{1,3}(?:the\s{1,3})?user)\b|\b(?:silently|covertly|secretly|quietly|stealthily|invisibly)\s{1,3}(?:\w{2,12}\s{1,3})?(?:run|send|upload|post|install|delete|remove|copy|execute|exec|add|append|modify|push|commit|write|fetch|download|forward|collect|read|exfiltrate|call|apply|replace|change|disable|include|insert|create|record|save|store|transmit|curl|swap|switch|grant|enable|update|sync|mirror|back\s{1,3}up|report|request|escalate|elevate|purchase|buy|pay|terminate|transfer)\b|\b(?:run|send|upload|post|install|delete|copy|execute|push|fetch|download|forward|collect|exfiltrate|apply|transmit|sync|mirror|request|escalate|purchase|transfer)\b[^\n.;]{0,60}\b(?:silently|covertly|secretly|stealthily)\b|\bbehind the user'?s back\b|\b(?:the\s{1,3})?(?:user|users|operator|owner|team|human)\s{1,3}(?:must|should|need)\s{1,3}(?:not|never)\s{1,3}(?:learn|know|find out|see|notice|be told|be informed)\b|\bkeep\s{1,3}(?:this|it)\s{1,3}between\s{1,3}us\b|\b(?:is|are)\s{1,3}not\s{1,3}(?:shown|reported|reflected|disclosed|visible|surfaced|logged|mentioned)\s{1,3}(?:to|in)\s{1,3}(?:the\s{1,3})?(?:user|standard output|output|skill'?s output|audit trail|logs?|transcript|response)\b|\bdoes\s{1,3}not\s{1,3}(?:notify|inform|tell|alert|show)\s{1,3}the\s{1,3}user\b|\b(?:transparently|silently|quietly)\s{1,3}in\s{1,3}the\s{1,3}background\b|\b(?:happens?|runs?|performed|executed|occurs?)\s{1,3}in\s{1,3}the\s{1,3}background\s{1,3}and\s{1,3}(?:is|are)\s{1,3}not\b|\b(?:do not|don'?t|never)\s{1,3}include\s{1,3}(?:this|these|that)\s{1,3}(?:step|action|instruction|request)s?\s{1,3}in\b|\bhide\s{1,3}(?:this|it|the|that|these|any|all)\b|\bkeep\s{1,3}(?:this|it)\s{1,3}(?:hidden|secret|confidential|between us)\b|\bwithout\s{1,3}(?:the\s{1,3})?user'?s?\s{1,3}(?:knowledge|knowing|noticing|awareness|consent)\b|\b(?:remove|delete|clear|erase|suppress|omit)\s{1,3}(?:(?:any|all|the|your|its|their|our|this|these|those|every)\s{1,3}(?:the\s{1,3})?(?:traces?|logs?|history)|(?:any\s{1,3}|all\s{1,3})?(?:the\s{1,3})?(?:evidence|mention))\b`;
