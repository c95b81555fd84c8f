/**
 * A small labelled set for retrieval: a support handbook (Markdown, several sections per document) and questions,
 * each with the document and section that answers it. Two kinds of questions, as people ask them: paraphrases
 * (words other than the document's: full-text search, which needs every word, misses them) and identifiers (error
 * codes, model numbers: embedding models blur them). Used by test/knowledge/retrieval-quality.test.ts and the bench.
 */
export interface LabelledDocument {
  title: string;
  content: string;
  metadata?: Record<string, string>;
}

export interface LabelledQuery {
  query: string;
  kind: "paraphrase" | "identifier" | "keywords";
  /** The document title and the heading of the section that answers it. */
  title: string;
  section: string;
}

export const HANDBOOK: LabelledDocument[] = [
  {
    title: "Billing handbook",
    metadata: { team: "billing" },
    content: `# Billing

## Refund policy

Refunds are issued within 30 days of purchase to the original payment method. Annual plans are refunded pro rata after
the first month. Digital goods that were downloaded are reviewed by a person before a refund is approved.

## Cancelling a subscription

You can cancel a subscription at any time from the Billing page. The subscription stays active until the end of the
period already paid, then it ends and renewal stops; nothing more is charged.

## Card errors

Error E4012 means the card was declined by the issuing bank: ask the customer to call their bank or use another card.
Error E5009 means the payment timed out at the processor; retry after a minute.

## Pricing plans

The Starter plan costs 9 dollars a month, Team 29 dollars per seat, Enterprise is quoted. Prices exclude VAT.`,
  },
  {
    title: "Shipping and returns",
    metadata: { team: "logistics" },
    content: `# Shipping

## Delivery times

Orders ship within two business days from our warehouse. Standard delivery takes three to five business days;
express delivery arrives the next business day when ordered before noon.

## Returning an item

Items can be returned within 14 days in their original packaging. Print the return label from the order page and drop
the parcel at any post office. Return shipping is free for defective items.

## International orders

We ship to 40 countries. Customs duties are paid by the recipient on arrival.`,
  },
  {
    title: "Account and security",
    metadata: { team: "support" },
    content: `# Account

## Resetting a password

To reset a password, open the sign-in page, choose "Forgot password" and follow the link sent by email. The link
expires after one hour. Accounts are locked for 15 minutes after five wrong attempts.

## Two-factor authentication

Two-factor authentication adds a one-time code from an authenticator app at sign-in. Turn it on under Settings,
Security. Recovery codes are shown once: store them safely.

## Exporting your data

Account owners can export all their data as a CSV file from Settings, Data. Large exports are prepared in the
background and a download link is emailed.`,
  },
  {
    title: "Hardware guide",
    metadata: { team: "hardware" },
    content: `# Hardware

## Warranty

Every device carries a two-year warranty against manufacturing defects. Damage from drops or water is not included.
Send a faulty unit to the repair centre with its serial number.

## XR-220 battery

The XR-220 uses a 4,000 mAh battery. A full charge takes two hours with the supplied adapter; replacements are sold as
part XR-220-B.

## XR-330 display

The XR-330 has a 7-inch display. If the screen flickers, update the firmware to version 3.2 or later.`,
  },
  {
    title: "Support desk",
    metadata: { team: "support" },
    content: `# Support

## Contact options

Customers reach support by email, by live chat on the website, or by phone on weekdays from 9 to 18. Enterprise
customers have a named account manager.

## Escalation

Tickets open for more than 48 hours are escalated to the team lead. Outages are announced on the status page.`,
  },
  {
    title: "Office notes",
    metadata: { team: "office" },
    content: `# Office

## Plants

Water the ficus on Mondays; the cactus needs little water.

## Holidays

The office closes on public holidays and between Christmas and New Year.

## Parking

Visitors park in the spaces marked P2 behind the building.`,
  },
];

export const QUERIES: LabelledQuery[] = [
  { query: "can I get my money back", kind: "paraphrase", title: "Billing handbook", section: "Refund policy" },
  {
    query: "how long until my package arrives",
    kind: "paraphrase",
    title: "Shipping and returns",
    section: "Delivery times",
  },
  {
    query: "I forgot my login credentials",
    kind: "paraphrase",
    title: "Account and security",
    section: "Resetting a password",
  },
  {
    query: "stop my plan from renewing",
    kind: "paraphrase",
    title: "Billing handbook",
    section: "Cancelling a subscription",
  },
  {
    query: "download all my information as a spreadsheet",
    kind: "paraphrase",
    title: "Account and security",
    section: "Exporting your data",
  },
  { query: "my device broke, is it covered", kind: "paraphrase", title: "Hardware guide", section: "Warranty" },
  { query: "how do I talk to a human", kind: "paraphrase", title: "Support desk", section: "Contact options" },
  { query: "how expensive is it", kind: "paraphrase", title: "Billing handbook", section: "Pricing plans" },
  { query: "E4012", kind: "identifier", title: "Billing handbook", section: "Card errors" },
  { query: "XR-220", kind: "identifier", title: "Hardware guide", section: "XR-220 battery" },
  { query: "XR-330", kind: "identifier", title: "Hardware guide", section: "XR-330 display" },
  { query: "P2", kind: "identifier", title: "Office notes", section: "Parking" },
  { query: "return label", kind: "keywords", title: "Shipping and returns", section: "Returning an item" },
  { query: "recovery codes", kind: "keywords", title: "Account and security", section: "Two-factor authentication" },
];

/** Recall@k of one query's hits: 1 when the labelled section is among the first k. */
export function hitAt(
  hits: readonly { title: string; headingPath: string[] }[],
  query: LabelledQuery,
  k: number,
): number {
  return hits.slice(0, k).some((h) => h.title === query.title && h.headingPath.at(-1) === query.section) ? 1 : 0;
}
