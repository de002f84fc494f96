// The Weng-Lin (Bradley-Terry, full pairing) update for two players, written from the published
// formulas (Weng and Lin 2011, algorithm 1) with the defaults of the `skillratings` crate the server
// uses: beta = 25/6, uncertainty floor kappa = 0.0001, a new player mu = 25, sigma = 25/3. The
// tests compute with it what the server's ratings must become, independently of the server's code.

export const BETA = 25 / 6;
export const KAPPA = 0.0001;
export const START = { mu: 25, sigma: 25 / 3 };
/** Ratings are shown as mu x 60 (and sigma x 60), rounded (docs/protocol.md, PROFILE). */
export const SCALE = 60;

/**
 * The ratings after one game between `a` and `b` ({mu, sigma}); `scoreA` is 1 (a won), 0.5 (shared
 * first place) or 0 (b won). Returns [a2, b2].
 */
export function wengLin(a, b, scoreA) {
  const c = Math.sqrt(a.sigma ** 2 + b.sigma ** 2 + 2 * BETA ** 2);
  const ea = Math.exp(a.mu / c);
  const eb = Math.exp(b.mu / c);
  const pa = ea / (ea + eb);
  const pb = 1 - pa;
  const update = (p, pWin, score) => {
    const mu = p.mu + (p.sigma ** 2 / c) * (score - pWin);
    const gamma = p.sigma / c;
    const eta = gamma * (p.sigma ** 2 / c ** 2) * pWin * (1 - pWin);
    const sigma = Math.sqrt(p.sigma ** 2 * Math.max(1 - eta, KAPPA));
    return { mu, sigma };
  };
  return [update(a, pa, scoreA), update(b, pb, 1 - scoreA)];
}

/** A rating as the server shows it: {rating, deviation} = round(mu x 60), round(sigma x 60). */
export function shown(r) {
  return { rating: Math.round(r.mu * SCALE), deviation: Math.round(r.sigma * SCALE) };
}
