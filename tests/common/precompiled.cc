// The program of cw_test_pch (tests/CMakeLists.txt), built only to make the tests' precompiled
// header; it does nothing.
int main() { return 0; }
