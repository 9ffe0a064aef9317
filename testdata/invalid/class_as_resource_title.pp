notify { class a {}: }
