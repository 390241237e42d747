"""The generators behind every deal: their outputs must never change."""

from shared.rng import MT19937, MicrosoftRand


def test_mt19937_matches_reference_init_genrand_5489() -> None:
    rng = MT19937(5489)
    first = [rng.genrand_int32() for _ in range(5)]
    assert first == [3499211612, 581869302, 3890346734, 3586334585, 545404204]


def test_mt19937_10000th_output_is_the_cxx_standard_value() -> None:
    # C++11 requires default-seeded (5489) std::mt19937 to give 4123659995 as its 10000th value.
    rng = MT19937(5489)
    for _ in range(9999):
        rng.genrand_int32()
    assert rng.genrand_int32() == 4123659995


def test_rand_rejects_values_above_the_largest_multiple() -> None:
    # With n = 3 * 2**30, values >= 2**32 - 2**30 are rejected: the first accepted output
    # of seed 5489 above that limit must be skipped, exactly as GLib's g_rand_int_range does.
    n = 3 * 2**30
    limit = 2**32 - 1 - (2**32 % n)
    reference = MT19937(5489)
    expected = next(v % n for v in iter(reference.genrand_int32, None) if v <= limit)
    assert MT19937(5489).rand(n) == expected
    assert limit < 3499211612  # the first raw output is rejected, so the test is meaningful


def test_rand_small_bound_is_modulo_of_accepted_output() -> None:
    assert MT19937(5489).rand(52) == 3499211612 % 52


def test_microsoft_rand_first_values_for_seed_1() -> None:
    rng = MicrosoftRand(1)
    assert [rng.rand() for _ in range(3)] == [41, 18467, 6334]
