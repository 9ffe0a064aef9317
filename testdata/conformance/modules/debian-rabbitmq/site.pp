include rabbitmq
