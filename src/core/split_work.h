// One layer's work split over W workers, the way the cost lab measures parallel speed-up (Web Workers in the
// browser, threads natively). Each worker owns one of these objects and the same seeded inputs, so no memory
// is shared: only what the algorithm must exchange travels between workers.
//
//   attention: the n query rows are split, [r0, r1) per worker. A row of softmax(Q·Kᵀ/√d)·V needs Q's row and
//              all of K and V, nothing from another row, so the workers never talk: one step, no hand-off.
//   GRU:       the hidden units are split, [u0, u1) per worker. Unit u of h_t needs x_t and the WHOLE h_{t−1}
//              (kernels.h, gru_step_units), so after every time step each worker must receive the other
//              workers' slices of h_t before it can start step t + 1: n dependent steps, n hand-offs.
// Splitting changes no arithmetic: every row (every unit) is computed by the same code as in the one-worker
// call, so the outputs are bitwise equal whatever W is (tested).
#pragma once
#include <cstdint>
#include <vector>

#include "kernels.h"
#include "status.h"

namespace ap {

struct UnitRange {
  int begin = 0, end = 0;  // [begin, end)
};
// `count` items over `parts` workers as evenly as possible (the first count % parts get one more).
// parts is clamped to 1 .. count (count >= 1); an empty count gives one empty range.
std::vector<UnitRange> split_even(int count, int parts);

// Query rows [r0, r1) of one attention call, n × d, inputs seeded by `seed` (identical in every worker).
class SplitAttention {
 public:
  Status prepare(bool tiled, int n, int d, int r0, int r1, uint64_t seed);
  // `reps` calls over this worker's rows; returns the sum of its output rows (a checksum: the workers' sums
  // add up to the one-worker sum, up to the order of the additions).
  double run(long long reps);
  const std::vector<float>& output() const { return out_; }  // n × d; only rows [r0, r1) written
  Status last_status() const { return last_; }
  const std::vector<float>& q() const { return q_; }  // n × d, row-major (also k(), v())
  const std::vector<float>& k() const { return k_; }
  const std::vector<float>& v() const { return v_; }

 private:
  bool tiled_ = false;
  int n_ = 0, d_ = 0, r0_ = 0, r1_ = 0;
  std::vector<float> q_, k_, v_, out_, ws_;
  Status last_;
};

// Hidden units [u0, u1) of a GRU with input width d and `hidden` units over n time steps, inputs and weights
// seeded by `seed` (identical in every worker). The caller drives the steps:
//   reset();  for t in 0 .. n−1: step(t); (receive the other slices of h_t into next()); advance();
class SplitGru {
 public:
  Status prepare(int n, int d, int hidden, int u0, int u1, uint64_t seed);
  void reset();                      // h_{−1} = 0, back to t = 0
  Status step(int t);                // this worker's units of h_t, from x_t and prev(), into next()
  float* next() { return next_.data(); }               // h_t being assembled (hidden floats)
  const float* prev() const { return prev_.data(); }  // h_{t−1}, complete
  void advance() { prev_.swap(next_); }              // h_t is complete: it becomes h_{t−1} of the next step
  // One worker alone (u0 = 0, u1 = hidden): all n steps; returns the checksum.
  double run_all();
  double checksum() const;  // sum of prev(): after the last advance, the sum of h_{n−1}
  int n() const { return n_; }
  int hidden() const { return hidden_; }
  int u0() const { return u0_; }
  int u1() const { return u1_; }
  // The seeded inputs (row-major): x n × d, W 3·hidden × d, U 3·hidden × hidden, b and c 3·hidden.
  const std::vector<float>& x() const { return x_; }
  GruWeights weights() const { return {wx_.data(), wh_.data(), bx_.data(), bh_.data()}; }

 private:
  int n_ = 0, d_ = 0, hidden_ = 0, u0_ = 0, u1_ = 0;
  std::vector<float> x_, wx_, wh_, bx_, bh_, prev_, next_;
};

}  // namespace ap
