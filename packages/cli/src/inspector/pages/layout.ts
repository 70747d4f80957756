import { html, type SafeHtml, seg } from '../html.js';

export interface PageOptions {
  readonly title: string;
  readonly guildId?: string;
  /** Admin actions are enabled on this server (forms are shown). */
  readonly admin?: boolean;
}

/** The document around a page: no inline script or style, assets from /static only. */
export function layout(options: PageOptions, body: SafeHtml): string {
  const g = options.guildId;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${options.title} · Permafrost inspector</title>
<link rel="stylesheet" href="/static/inspector.css">
<script src="/static/inspector.js" defer></script>
</head>
<body>
<header class="top">
  <a class="brand" href="/">Permafrost inspector</a>
  ${
    g !== undefined
      ? html`<nav>
    <a href="/g/${seg(g)}">members</a>
    <a href="/g/${seg(g)}/search">search</a>
    <a href="/g/${seg(g)}/metrics">metrics</a>
  </nav>
  <form class="quick-search" method="get" action="/g/${seg(g)}/search" role="search">
    <input type="search" name="q" placeholder="recall and message search" aria-label="search">
  </form>`
      : ''
  }
  <span class="mode">${options.admin ? 'admin actions enabled' : 'read-only'}</span>
</header>
<main>
${body}
</main>
</body>
</html>
`.value;
}

/** A form posting an admin action; the token is typed by the operator (never stored in the page). */
export function adminForm(
  action: string,
  label: string,
  confirm: string,
  hidden: SafeHtml | '' = '',
): SafeHtml {
  return html`<form class="admin" method="post" action="${action}" data-confirm="${confirm}">
  ${hidden}
  <input type="password" name="token" placeholder="admin token" autocomplete="off" required aria-label="admin token">
  <button type="submit">${label}</button>
</form>`;
}
