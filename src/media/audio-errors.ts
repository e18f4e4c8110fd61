export type AudioFailureReason = 'unsupported_format' | 'undecodable' | 'no_audio' | 'unreadable';

/** Thrown inside the media module only; its public functions turn it into a typed failure result. */
export class AudioDecodeError extends Error {
  constructor(
    readonly reason: AudioFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'AudioDecodeError';
  }
}
