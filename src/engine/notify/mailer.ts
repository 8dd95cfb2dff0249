export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  unsubscribeUrl: string;
  messageId: string;
}
export interface Mailer {
  send(mail: OutgoingMail): Promise<void>;
}
