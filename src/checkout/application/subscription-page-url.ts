/** The buyer's subscription page (cancel): the merchant list's manageUrl and the link every renewal email carries. */
export const subscriptionPageUrl = (hostedCheckoutUrl: string, subscriptionId: string) => `${hostedCheckoutUrl}/subscriptions/${encodeURIComponent(subscriptionId)}`;
