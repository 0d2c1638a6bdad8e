/* tests/data/symtab/prog.c — fixture for tests/symtab/t-fold-symbols.sh:
 * known functions, one static, built at test time (never committed as a
 * binary).  noinline keeps every function a symbol of its own. */
__attribute__((noinline)) static int leaf(int x) { __asm__ volatile(""); return x * 7; }
__attribute__((noinline)) int work(int x) { __asm__ volatile(""); return leaf(x) + 1; }
__attribute__((noinline)) int other(int x) { __asm__ volatile(""); return leaf(x) - 1; }
int main(int argc, char **argv) { return work(argc) + other(argc); }
