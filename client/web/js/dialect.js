// What the client reads from and asks of a protocol-2 server, in the few places where a server
// of another version would differ: the client speaks protocol 2 exactly as
// docs/protocol.md writes it.

export const dialect = {
  /** The version sent in hello. */
  protocol: 2,

  /** Requests the server knows beyond protocol 1's (asking for an unknown one counts as a
   * client mistake on the server: the client does not try). */
  has: { games: true },

  /** The layout of a variant: VariantInfo's ``layout`` (null when the server sent none). */
  layout(info /* , pileIds */) {
    return info?.layout ?? null;
  },

  /** The request that starts a practice game on a daily's deal once the attempt has ended. */
  practice(variant /* , view */) {
    return { type: 'daily', variant, practice: true };
  },

  /** The id of a player's game in a room's current or last race: RoomView's ``players`` carry
   * ``game`` (an addition of this server, docs/protocol.md); null when absent. */
  roomGame(room, playerId) {
    return room?.players?.find((p) => p.id === playerId)?.game ?? null;
  },
};
