/** Types of ./build-stamp.mjs (plain JavaScript, run by node in `npm start`). */
export declare function sourceFingerprint(root: string): string;
export declare function buildIsCurrent(root: string, fingerprint?: string): boolean;
export declare function writeBuildStamp(root: string, fingerprint: string): void;
/** `next build` unless the build is current (then the stamp), saying its progress; exits the process when the build fails. Whether it built. */
export declare function buildWhenNeeded(root: string): Promise<boolean>;
