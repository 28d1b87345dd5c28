/* Gives free malloc memory back to the system. After a storm, glibc's heap keeps the chunks it freed resident
 * (only its top is trimmed by free()): the hostile bench's daemon held ~80 MB of free malloc memory a minute after
 * the storms, with the V8 heap back to its start. malloc_trim(0) releases free pages anywhere in every arena. Where
 * the C library is not glibc, both functions do nothing and say so. */
#include <stdlib.h>
#include <node_api.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* trim(): true when memory was given back. */
static napi_value Trim(napi_env env, napi_callback_info info) {
  int released = 0;
#if defined(__GLIBC__)
  released = malloc_trim(0);
#endif
  napi_value result;
  napi_get_boolean(env, released != 0, &result);
  return result;
}

/* freeBytes(): bytes malloc holds free (in its arenas, not yet given back), or -1 where that is not known. */
static napi_value FreeBytes(napi_env env, napi_callback_info info) {
  double free_bytes = -1;
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 mi = mallinfo2();
  free_bytes = (double)mi.fordblks;
#endif
  napi_value result;
  napi_create_double(env, free_bytes, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  napi_create_function(env, "trim", NAPI_AUTO_LENGTH, Trim, NULL, &fn);
  napi_set_named_property(env, exports, "trim", fn);
  napi_create_function(env, "freeBytes", NAPI_AUTO_LENGTH, FreeBytes, NULL, &fn);
  napi_set_named_property(env, exports, "freeBytes", fn);
  return exports;
}
