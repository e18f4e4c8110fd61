/**
 * One message's content, written once: it renders to a plain-text body and an HTML body that say the
 * same. Paragraphs are plain text (escaped for HTML); the action is the link the message exists for.
 */
export type MailContent = {
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  /** Lines under the action: why the person got the message, what to do if it was not them. */
  footer?: string[];
};

export type RenderedMail = { subject: string; text: string; html: string };

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

/** Subjects travel in a header: no line breaks, bounded length. */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ').slice(0, 200);

export function renderMail(content: MailContent): RenderedMail {
  const { paragraphs, action, footer = [] } = content;
  const text = [
    ...paragraphs,
    ...(action ? [`${action.label}:\n${action.url}`] : []),
    ...(footer.length > 0 ? ['--', ...footer] : []),
  ].join('\n\n');
  const p = (value: string, style = '') =>
    `<p style="margin:0 0 16px;${style}">${escapeHtml(value).replace(/\n/g, '<br>')}</p>`;
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#1f2937;color:#ffffff;` +
      `padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>\n` +
      p(`If the button does not work, open this address: ${action.url}`, 'font-size:13px;color:#6b7280')
    : '';
  // One block a line: short lines keep the HTML part readable as written, as the text part is.
  const html = [
    '<!doctype html><html><body style="font-family:system-ui,sans-serif;font-size:15px;color:#111827;' +
      'max-width:560px;margin:0 auto;padding:24px">',
    ...paragraphs.map((line) => p(line)),
    button,
    ...footer.map((line) => p(line, 'font-size:13px;color:#6b7280')),
    '</body></html>',
  ]
    .filter((line) => line !== '')
    .join('\n');
  return { subject: oneLine(content.subject), text: `${text}\n`, html };
}
