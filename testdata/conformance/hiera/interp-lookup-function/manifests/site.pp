notify { "url=${lookup('app::url')}": }
