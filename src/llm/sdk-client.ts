import { BaseAnthropic } from '@anthropic-ai/sdk/client';
import { Messages } from '@anthropic-ai/sdk/resources/messages/messages';
import { Models } from '@anthropic-ai/sdk/resources/models';

/**
 * The SDK's client with only the two resources codey calls: `messages` (`POST /v1/messages`) and
 * `models` (`GET /v1/models/{id}`). The SDK's default export carries every API (beta, files,
 * skills, organization…), about 1 MB of code that every request would load and compile; the
 * options, retries, errors and streaming are the same `BaseAnthropic`.
 */
export class SdkClient extends BaseAnthropic {
  messages: Messages = new Messages(this);
  models: Models = new Models(this);
}
