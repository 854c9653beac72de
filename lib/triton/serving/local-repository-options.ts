// A server's copy of its repository on local disk, as plain data: TritonServer's localRepository, and a fleet's server.

export interface LocalRepositoryOptions {
  /**
   * Size of the local copy in GiB: the emptyDir's limit and the init container's ephemeral-storage request, so the pod
   * is only scheduled on a node with that much disk. At least the size of every model, weights included.
   */
  readonly sizeGiB: number;
  /** Image of the copy step, with `aws` on its path. @default LOCAL_REPOSITORY_DEFAULTS.image */
  readonly image?: string;
}
