/*
 * The classic ripple loop in C: the yardstick Ripples' realistic water is timed against.
 *
 * Two int16 buffers hold the water now and one step ago. A frame is the step and the render
 * exactly as Ripples' README states them ("The algorithm"), one thread, written as fast as
 * plain C gets: row pointers marked `restrict`, the border rows and columns outside the inner
 * loops, so that the compiler (gcc -O3 -march=native, from the yardstick's build script)
 * vectorizes both loops. The only
 * departures from the article are Ripples' own, which make the two comparable bit for bit:
 * sums saturate to int16 instead of wrapping, border cells are never written, and the render
 * clamps the displaced pixel into the image and copies the source in the border rows and
 * columns.
 *
 *   step:   s = cur[i-1] + cur[i+1] + cur[i-W] + cur[i+W]
 *           v = (s >> 1) - prev[i];  v -= v >> D;  prev[i] = saturate(v);  swap cur, prev
 *   render: dx = cur[i-1] - cur[i+1],  dy = cur[i-W] - cur[i+W]
 *           dst[i] = src[clamp(y + dy, 0, H-1) * W + clamp(x + dx, 0, W-1)]
 *
 * Usage (the yardstick runs it; it is a program of its own so that no Rust code needs to call
 * C, which would take `unsafe`):
 *
 *   seed_classic time  WIDTH HEIGHT SHIFT FRAMES   < state   prints the seconds FRAMES frames took
 *   seed_classic check WIDTH HEIGHT SHIFT FRAMES   < state   writes the heights and the frame
 *
 * `state` is the water now (W*H int16), the water one step ago (W*H int16) and the source
 * image (W*H 4-byte pixels), row-major, in the machine's byte order (both programs run on the
 * same machine). `time` runs one frame untimed first, so
 * the buffers are in memory, then starts again from the given state and times FRAMES frames.
 * `check` writes the water after FRAMES frames (W*H int16) and the last frame (W*H pixels).
 */
#define _POSIX_C_SOURCE 199309L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * Both loops run over whole rows through `restrict` row pointers, with the border rows and
 * columns handled outside the inner loop, so the inner loops hold no test but the clamps and
 * gcc vectorizes them (checked with -fopt-info-vec: the step's loop and the render's, the
 * render with gathers where the machine has them).
 */
static void step(const int16_t *restrict cur, int16_t *restrict prev, int w, int h, int shift)
{
    for (int y = 1; y < h - 1; y++) {
        const int16_t *restrict up = cur + (size_t)(y - 1) * w;
        const int16_t *restrict row = cur + (size_t)y * w;
        const int16_t *restrict down = cur + (size_t)(y + 1) * w;
        int16_t *restrict out = prev + (size_t)y * w;
        for (int x = 1; x < w - 1; x++) {
            int32_t s = row[x - 1] + row[x + 1] + up[x] + down[x];
            int32_t v = (s >> 1) - out[x];
            v -= v >> shift;
            v = v < INT16_MIN ? INT16_MIN : v;
            v = v > INT16_MAX ? INT16_MAX : v;
            out[x] = (int16_t)v;
        }
    }
}

static void render(const int16_t *restrict cur, const uint32_t *restrict src,
                   uint32_t *restrict dst, int w, int h)
{
    memcpy(dst, src, (size_t)w * sizeof(uint32_t));
    if (h > 1)
        memcpy(dst + (size_t)(h - 1) * w, src + (size_t)(h - 1) * w, (size_t)w * sizeof(uint32_t));
    for (int y = 1; y < h - 1; y++) {
        const int16_t *restrict up = cur + (size_t)(y - 1) * w;
        const int16_t *restrict row = cur + (size_t)y * w;
        const int16_t *restrict down = cur + (size_t)(y + 1) * w;
        uint32_t *restrict out = dst + (size_t)y * w;
        out[0] = src[(size_t)y * w];
        for (int x = 1; x < w - 1; x++) {
            int sx = x + (row[x - 1] - row[x + 1]);
            int sy = y + (up[x] - down[x]);
            sx = sx < 0 ? 0 : sx;
            sx = sx > w - 1 ? w - 1 : sx;
            sy = sy < 0 ? 0 : sy;
            sy = sy > h - 1 ? h - 1 : sy;
            out[x] = src[sy * w + sx];
        }
        if (w > 1)
            out[w - 1] = src[(size_t)y * w + w - 1];
    }
}

/* FRAMES frames from the state in `start`: the water ends in *cur. */
static void run(int16_t **cur, int16_t **prev, const int16_t *start, const uint32_t *src,
                uint32_t *dst, int w, int h, int shift, long frames)
{
    size_t cells = (size_t)w * (size_t)h;
    memcpy(*cur, start, cells * sizeof(int16_t));
    memcpy(*prev, start + cells, cells * sizeof(int16_t));
    for (long frame = 0; frame < frames; frame++) {
        step(*cur, *prev, w, h, shift);
        int16_t *swap = *cur;
        *cur = *prev;
        *prev = swap;
        render(*cur, src, dst, w, h);
    }
}

static int fail(const char *message)
{
    fprintf(stderr, "seed_classic: %s\n", message);
    return 2;
}

int main(int argc, char **argv)
{
    if (argc != 6 || (strcmp(argv[1], "time") != 0 && strcmp(argv[1], "check") != 0))
        return fail("usage: seed_classic time|check WIDTH HEIGHT SHIFT FRAMES < state");
    int w = atoi(argv[2]), h = atoi(argv[3]), shift = atoi(argv[4]);
    long frames = atol(argv[5]);
    if (w < 1 || h < 1 || w > 16384 || h > 16384 || shift < 1 || shift > 15 || frames < 1)
        return fail("sizes must be 1..=16384, the shift 1..=15 and the frames at least 1");
    size_t cells = (size_t)w * (size_t)h;
    int16_t *start = malloc(2 * cells * sizeof(int16_t));
    int16_t *cur = malloc(cells * sizeof(int16_t));
    int16_t *prev = malloc(cells * sizeof(int16_t));
    uint32_t *src = malloc(cells * sizeof(uint32_t));
    uint32_t *dst = malloc(cells * sizeof(uint32_t));
    if (!start || !cur || !prev || !src || !dst)
        return fail("out of memory");
    if (fread(start, sizeof(int16_t), 2 * cells, stdin) != 2 * cells ||
        fread(src, sizeof(uint32_t), cells, stdin) != cells)
        return fail("standard input ended before the whole state");

    if (strcmp(argv[1], "check") == 0) {
        run(&cur, &prev, start, src, dst, w, h, shift, frames);
        if (fwrite(cur, sizeof(int16_t), cells, stdout) != cells ||
            fwrite(dst, sizeof(uint32_t), cells, stdout) != cells)
            return fail("cannot write the result");
        return 0;
    }
    run(&cur, &prev, start, src, dst, w, h, shift, 1);
    struct timespec begin, end;
    clock_gettime(CLOCK_MONOTONIC, &begin);
    run(&cur, &prev, start, src, dst, w, h, shift, frames);
    clock_gettime(CLOCK_MONOTONIC, &end);
    /* Whatever the frames computed is used, so the compiler cannot drop them. */
    uint32_t checksum = 0;
    for (size_t i = 0; i < cells; i += 4099)
        checksum ^= dst[i] ^ (uint16_t)cur[i];
    printf("%.9f %u\n", (double)(end.tv_sec - begin.tv_sec) + (end.tv_nsec - begin.tv_nsec) * 1e-9,
           checksum);
    return 0;
}
