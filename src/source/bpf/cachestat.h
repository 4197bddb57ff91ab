/* SPDX-License-Identifier: GPL-2.0 */
/* Kernel/user ABI of cachestat: per-CPU call counters of the page cache functions. */
#ifndef PTK_CACHESTAT_H
#define PTK_CACHESTAT_H

enum cachestat_count {
	CS_ACCESSED, /* folio_mark_accessed / mark_page_accessed: page cache accesses */
	CS_ADDED, /* filemap_add_folio / add_to_page_cache_lru: pages brought into the cache */
	CS_DIRTIED, /* folio_account_dirtied / account_page_dirtied: pages dirtied (writes) */
	CS_BUF_DIRTY, /* mark_buffer_dirty: buffer (metadata) dirtied */
	CS_NR,
};

#endif
